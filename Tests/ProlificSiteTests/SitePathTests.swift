import Testing

@testable import ProlificSite

@Suite struct SitePathTests {
    /// The way back to the root counts the non-empty parts between slashes, as splitting did.
    @Test(arguments: [
        ("index.html", ""), ("projects/moon/index.html", "../../"),
        ("projects/moon/rounds/0001.html", "../../../"), ("users/ann/feed.xml", "../../"),
        ("a//b/index.html", "../../"), ("/a/index.html", "../"), ("a/b/", "../"), ("", ""), ("/", ""),
    ])
    func rootCountsTheFoldersOnTheWay(_ path: String, _ root: String) {
        #expect(SitePath.root(of: path) == root)
    }
}
