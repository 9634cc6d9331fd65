import ArgumentParser

/// `prolific serve`: builds the site, serves it on this computer, and rebuilds it on every change.
///
/// The server itself is the `prolific-serve` program installed beside `prolific`; this command
/// checks the arguments and hands over to it (`ServeLauncher`). The HTTP server's package brings
/// FoundationNetworking and libcurl with it, and every other command would load them at its start
/// for nothing if they were linked into `prolific` (docs/performance.md).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: ServeOptions.abstract, discussion: ServeOptions.discussion)

    @OptionGroup var options: ServeOptions

    func run() throws {
        try Terminal.guarded { try ServeLauncher.start(arguments: options.arguments) }
    }
}
