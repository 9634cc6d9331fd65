internal import CCmark
import ProlificCore

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

    /// What becomes of an image in the rendered page.
    public enum Image: Equatable, Sendable {
        /// Shown from this address.
        case source(String)
        /// Not loaded (it is on another host); its alt text links to it instead.
        case link(String)
        /// Dropped, leaving its alt text.
        case text
    }

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

    /// Renders one Markdown document to HTML, deciding for each image where it comes from.
    ///
    /// Links to `data:` URLs (cmark's safe mode keeps `data:image/…`) lose their target and keep
    /// their text: the site links only to addresses. A document without `![` or `data:` has
    /// neither images nor such links and takes the one-call path.
    public static func html(_ markdown: String, images: (String) -> Image) -> String {
        guard MarkdownScan.mayNeedRewriting(markdown) else { return html(markdown) }
        var source = markdown
        return source.withUTF8 { buffer -> String in
            guard let base = buffer.baseAddress else { return "" }
            let document = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                cmark_parse_document($0, buffer.count, options)
            }
            guard let document else { return "" }
            defer { cmark_node_free(document) }
            var found: [OpaquePointer] = []
            if let iterator = cmark_iter_new(document) {
                while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
                    guard cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator)
                    else { continue }
                    let type = cmark_node_get_type(node)
                    if type == CMARK_NODE_IMAGE || type == CMARK_NODE_LINK { found.append(node) }
                }
                cmark_iter_free(iterator)
            }
            for node in found {
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                if cmark_node_get_type(node) == CMARK_NODE_LINK {
                    if MarkdownScan.mentionsData(url) { unwrap(node) }
                    continue
                }
                switch images(url) {
                case .source(let target):
                    cmark_node_set_url(node, target)
                case .link(let target):
                    guard let link = cmark_node_new(CMARK_NODE_LINK) else { continue }
                    cmark_node_set_url(link, target)
                    while let child = cmark_node_first_child(node) { cmark_node_append_child(link, child) }
                    cmark_node_replace(node, link)
                    cmark_node_free(node)
                case .text:
                    unwrap(node)
                }
            }
            guard let rendered = cmark_render_html(document, options) else { return "" }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }

    /// Replaces a link or image by its children: its text stays, its target goes.
    private static func unwrap(_ node: OpaquePointer) {
        while let child = cmark_node_first_child(node) { cmark_node_insert_before(node, child) }
        cmark_node_unlink(node)
        cmark_node_free(node)
    }

    /// The version of libcmark in use, such as `0.30.2`.
    public static var version: String {
        guard let text = cmark_version_string() else { return "unknown" }
        return String(cString: text)
    }
}
