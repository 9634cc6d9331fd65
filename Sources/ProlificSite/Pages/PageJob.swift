/// One page to render: which template, the page's common context, and its own values, worked out
/// only when the page is rendered.
struct PageJob {
    var template: String
    var context: PageContext
    var values: () -> [String: Any]
    /// What the page's own values are a function of, when that costs much less than working
    /// them out: a rebuild then keeps the page's file without working out its values (see
    /// `PageFingerprint`). Everything the values depend on must be in it, or a rebuild keeps a
    /// stale page; nil for a page that can't say (it is then fingerprinted by its values). The
    /// page's context is added to them by the builder.
    var inputs: (() -> PageInputs?)? = nil
    /// Fingerprints the page's file carries for the next build besides its own
    /// (`OutputFile.alsoRecorded`).
    var alsoRecorded: [OutputFile.Record] = []

    /// Whether the page belongs in the sitemap.
    var isListed: Bool { !context.noindex && context.path != SitePath.notFound }

    init(
        _ template: String, _ context: PageContext, inputs: (() -> PageInputs?)? = nil,
        values: @escaping () -> [String: Any]
    ) {
        self.template = template
        self.context = context
        self.inputs = inputs
        self.values = values
    }
}
