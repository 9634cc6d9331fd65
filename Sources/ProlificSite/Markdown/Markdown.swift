internal import CCmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Markdown to HTML through the system's libcmark. The only file that touches cmark's C API.
///
/// cmark runs in its safe default: raw HTML in what players write is replaced by a comment and
/// `javascript:`, `vbscript:`, `file:` and most `data:` link targets are emptied. `CMARK_OPT_UNSAFE`
/// is never passed. Smart punctuation gives fiction its proper quotes and dashes.
public enum Markdown {
    /// The options every body is rendered with.
    static let options = CMARK_OPT_DEFAULT | CMARK_OPT_SMART

    /// Renders one Markdown document to HTML.
    public static func html(_ markdown: String) -> String {
        var source = markdown
        return source.withUTF8 { buffer -> String in
            guard let base = buffer.baseAddress else { return "" }
            let rendered = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                cmark_markdown_to_html($0, buffer.count, options)
            }
            guard let rendered else { return "" }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }

    /// The version of libcmark in use, such as `0.30.2`.
    public static var version: String {
        guard let text = cmark_version_string() else { return "unknown" }
        return String(cString: text)
    }
}
