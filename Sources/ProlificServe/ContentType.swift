/// The `Content-Type` of each kind of file a site holds, from its extension.
///
/// A fixed table rather than the platform's type database, so a page is served the same way on
/// every machine, and text types say UTF-8 because that is what `build` writes.
enum ContentType {
    static let html = "text/html; charset=utf-8"
    static let text = "text/plain; charset=utf-8"

    static let byExtension: [String: String] = [
        "html": html, "htm": html,
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "json": "application/json",
        "xml": "application/xml; charset=utf-8",
        "ics": "text/calendar; charset=utf-8",
        "txt": text,
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
        "epub": "application/epub+zip",
    ]

    /// `feed.xml` → `application/xml; charset=utf-8`; anything unknown is opaque bytes.
    static func of(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: ".") else { return "application/octet-stream" }
        let ext = fileName[fileName.index(after: dot)...].lowercased()
        return byExtension[ext] ?? "application/octet-stream"
    }

    static func isHTML(_ fileName: String) -> Bool { of(fileName) == html }
}
