/// `sitemap.xml` and `robots.txt`: where search engines find the pages. The only files besides
/// canonical links and feeds that use the absolute `base-url`.
enum SiteMap {
    /// The listed pages, in path order, as `<loc>` URLs (directories for index pages).
    static func file(pages: [String], baseURL: String) -> OutputFile {
        // Written as bytes, the address escaped once: 25,000 lines appended to a string, each
        // spelt out by interpolation, took longer than a feed.
        var base: [UInt8] = []
        XML.append(escaped: baseURL, to: &base)
        var xml: [UInt8] = []
        xml.reserveCapacity(128 + pages.count * (base.count + 48))
        xml += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n".utf8
        // Each address made once, then sorted: made again at every comparison, they were 1.7 %
        // of a large rebuild's samples.
        for location in pages.map(SitePath.pretty).sorted() {
            xml += "  <url><loc>".utf8
            xml += base
            XML.append(escaped: location, to: &xml)
            xml += "</loc></url>\n".utf8
        }
        xml += "</urlset>\n".utf8
        return OutputFile(path: "sitemap.xml", contents: xml)
    }

    static func robots(baseURL: String) -> OutputFile {
        OutputFile(path: "robots.txt", text: "User-agent: *\nAllow: /\nSitemap: \(baseURL)sitemap.xml\n")
    }
}
