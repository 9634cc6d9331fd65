/// One page to render: which template, the page's common context, and its own values, worked out
/// only when the page is rendered.
struct PageJob {
    var template: String
    var context: PageContext
    var values: () -> [String: Any]

    /// Whether the page belongs in the sitemap.
    var isListed: Bool { !context.noindex && context.path != SitePath.notFound }

    init(_ template: String, _ context: PageContext, values: @escaping () -> [String: Any]) {
        self.template = template
        self.context = context
        self.values = values
    }
}
