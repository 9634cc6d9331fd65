import ProlificCore

/// Splits a long list over numbered pages: page 1 at the list's own address, then `page/2/`, …
/// (the players' list: `users/page-2.html`, …, `SitePath.users(page:)`).
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

    /// `previous` / `next` links and `Page 2 of 5`, given where page `n` lives. The links say
    /// "Newer" and "Older" for lists of stories, newest or most active first; a list in another
    /// order (the players, by handle) names them otherwise.
    func values(previous: String = "← Newer", next: String = "Older →", _ path: (Int) -> String) -> Any {
        guard count > 1 else { return false }
        return [
            "label": "Page \(number) of \(count)",
            "hasPrevious": number > 1, "previousURL": number > 1 ? path(number - 1) : "", "previousLabel": previous,
            "hasNext": number < count, "nextURL": number < count ? path(number + 1) : "", "nextLabel": next,
        ] as [String: Any]
    }
}

extension Pagination where Item == Project {
    /// Story cards per page.
    static var pageSize: Int { 12 }
}

extension Pagination where Item == User {
    /// Players per page of the players' list: a large game's 5,000 made one page of 1.2 MB,
    /// made again whenever anyone's karma changed.
    static var pageSize: Int { 100 }
}
