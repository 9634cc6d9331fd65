import ProlificCore

/// A page per tag listing the stories that carry it, paginated like the home page.
///
/// Tags are free text; a tag's page lives at `tags/<key>/`, where the key keeps ASCII letters and
/// digits (lower-cased) and turns everything else into `-`. Tags that differ only in case or
/// punctuation share a page. A tag with other characters gets a short hash in its key, so `café`
/// and `caf` never collide.
struct TagPages {
    let site: SiteModel

    /// `Sci-Fi!` → `sci-fi`; `日本` → `tag-1a2b3c4d`.
    static func key(_ tag: String) -> String {
        var key = ""
        var plain = true
        for scalar in tag.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                key.unicodeScalars.append(scalar)
            } else {
                if !scalar.isASCII { plain = false }
                if !key.isEmpty, !key.hasSuffix("-") { key += "-" }
            }
        }
        while key.hasSuffix("-") { key.removeLast() }
        if key.count > 40 { key = String(key.prefix(40)) }
        if !plain || key.isEmpty {
            let hash = String(NeutralOrder.fnv1a(tag.lowercased()) & 0xFFFF_FFFF, radix: 16)
            key = key.isEmpty ? "tag-\(hash)" : "\(key)-\(hash)"
        }
        return key
    }

    /// Every tag of a listed project by key, with its display name (the spelling used most
    /// often, ties going to the first in alphabetical order) and its projects: those in progress
    /// in their own explore order (`Explore.Ranking.order`: the tag's stories mixed as if only
    /// they were listed, so a story of another tag that starts or completes leaves the mix as it
    /// was), then the completed ones, most recently finished first.
    var tags: [(key: String, name: String, projects: [Project])] {
        var spellings: [String: [String: Int]] = [:]
        var inProgress: [String: [Project]] = [:], completed: [String: [Project]] = [:]
        func add(_ project: Project, to lists: inout [String: [Project]]) {
            var seen: Set<String> = []
            for tag in project.tags {
                let key = Self.key(tag)
                spellings[key, default: [:]][tag, default: 0] += 1
                if seen.insert(key).inserted { lists[key, default: []].append(project) }
            }
        }
        for project in site.inProgress { add(project, to: &inProgress) }
        for project in site.completed { add(project, to: &completed) }
        return Set(inProgress.keys).union(completed.keys).sorted().map { key in
            let name = (spellings[key] ?? [:]).sorted { a, b in a.value != b.value ? a.value > b.value : a.key < b.key }
                .first?.key ?? key
            return (key, name, site.exploreRanking.order(inProgress[key] ?? []) + (completed[key] ?? []))
        }
    }

    /// Tags as links to their pages; a tag that has no page (only unlisted projects carry it)
    /// stays plain text.
    func links(_ tags: [String]) -> [[String: Any]] {
        tags.map { tag in
            let key = Self.key(tag)
            let listed = site.listedTagKeys.contains(key)
            return ["name": tag, "hasPage": listed, "url": listed ? SitePath.tag(key) : ""]
        }
    }

    /// Adds what `links(_:)` makes of `tags` beyond the tags themselves (which come with their
    /// project's files): whether each has a page.
    func addLinkInputs(_ tags: [String], to inputs: inout PageInputs) {
        inputs.list(tags.count)
        for tag in tags { inputs.add(site.listedTagKeys.contains(Self.key(tag))) }
    }

    func jobs(_ tags: [(key: String, name: String, projects: [Project])]) -> [PageJob] {
        tags.flatMap { tag in
            Pagination.pages(of: tag.projects, size: Pagination<Project>.pageSize).map { page in
                let path = SitePath.tag(tag.key, page: page.number)
                let context = PageContext(
                    site: site.config, now: site.now, path: path,
                    title: page.number == 1 ? "Stories tagged “\(tag.name)”" : "Stories tagged “\(tag.name)”, page \(page.number)",
                    description: "Stories tagged \(tag.name) on \(site.config.title).", section: .stories)
                let inputs = { () -> PageInputs? in
                    var inputs = ProjectPages(site: site).cardsInputs(page)
                    inputs?.add(tag.name)
                    inputs?.add(tag.projects.count)
                    return inputs
                }
                return PageJob("list", context, inputs: inputs) {
                    [
                        "heading": "Tagged “\(tag.name)”",
                        "countLabel": Display.count(tag.projects.count, "story", plural: "stories"),
                        "projects": page.items.map(ProjectPages(site: site).card),
                        "pagination": page.values { SitePath.tag(tag.key, page: $0) },
                    ]
                }
            }
        }
    }
}
