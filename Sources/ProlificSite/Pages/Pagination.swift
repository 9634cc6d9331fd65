import ProlificCore

/// Splits a long list over numbered pages: page 1 at the list's own address, then `page/2/`, …
struct Pagination<Item> {

    var number: Int
    var count: Int
    var items: ArraySlice<Item>

    /// At least one page, even for an empty list, so the first page always exists.
    static func pages(of items: [Item], size: Int) -> [Pagination<Item>] {
        let count = max(1, (items.count + size - 1) / size)
        return (1...count).map { n in
            let start = (n - 1) * size
            return Pagination(number: n, count: count, items: items[min(start, items.count)..<min(start + size, items.count)])
        }
    }

    /// `previous` / `next` links and `Page 2 of 5`, given where page `n` lives.
    func values(_ path: (Int) -> String) -> Any {
        guard count > 1 else { return false }
        return [
            "label": "Page \(number) of \(count)",
            "hasPrevious": number > 1, "previousURL": number > 1 ? path(number - 1) : "",
            "hasNext": number < count, "nextURL": number < count ? path(number + 1) : "",
        ] as [String: Any]
    }
}

extension Pagination where Item == Project {
    /// Story cards per page.
    static var pageSize: Int { 12 }
}
