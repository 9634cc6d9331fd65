/// `sitemap.xml` and `robots.txt`: where search engines find the pages. The only files besides
/// canonical links and feeds that use the absolute `base-url`.
enum SiteMap {
    /// The listed pages, in path order, as `<loc>` URLs (directories for index pages).
    static func file(pages: [String], baseURL: String) -> OutputFile {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        // Each address made once, then sorted: made again at every comparison, they were 1.7 %
        // of a large rebuild's samples.
        for location in pages.map(SitePath.pretty).sorted() {
            xml += "  <url><loc>\(XML.escape(baseURL + location))</loc></url>\n"
        }
        xml += "</urlset>\n"
        return OutputFile(path: "sitemap.xml", text: xml)
    }

    static func robots(baseURL: String) -> OutputFile {
        OutputFile(path: "robots.txt", text: "User-agent: *\nAllow: /\nSitemap: \(baseURL)sitemap.xml\n")
    }
}
