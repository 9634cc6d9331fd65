/// `sitemap.xml` and `robots.txt`: where search engines find the pages. The only files besides
/// canonical links that use the absolute `base-url`.
enum SiteMap {
    /// Every HTML page but the 404, in path order, as `<loc>` URLs (directories for index pages).
    static func file(pages: [String], baseURL: String) -> OutputFile {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for page in pages.sorted() where page.hasSuffix(".html") && page != PageContext.notFound {
            let path = page.hasSuffix("index.html") ? String(page.dropLast("index.html".count)) : page
            xml += "  <url><loc>\(escape(baseURL + path))</loc></url>\n"
        }
        xml += "</urlset>\n"
        return OutputFile(path: "sitemap.xml", contents: Array(xml.utf8))
    }

    static func robots(baseURL: String) -> OutputFile {
        OutputFile(path: "robots.txt", contents: Array("User-agent: *\nAllow: /\nSitemap: \(baseURL)sitemap.xml\n".utf8))
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}
