import ArgumentParser
import FlyingFox
import FlyingSocks
import Foundation
import ProlificCore
import ProlificStore

/// `prolific serve`: builds the site, serves it on this computer, and rebuilds it on every change.
///
/// For writing content and themes: the browser reloads by itself after each rebuild. It listens on
/// 127.0.0.1 only, so nobody else on the network can read unpublished content.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site, serve it on this computer and rebuild it when the content changes.",
        discussion: """
            The site is built into --out as by `prolific build`, then served at http://127.0.0.1:PORT/ only. \
            The content directory and the templates folder are watched; after each change the site is rebuilt \
            and open pages reload. A build that fails prints its errors and the previous site stays served. \
            Without --now, each build uses the current time. Stop with Ctrl-C.
            """)

    @Option(help: ArgumentHelp("The folder to write the site to.", valueName: "dir"))
    var out: String = "Site"

    @Option(help: ArgumentHelp("The templates folder (default: Templates beside the content directory).", valueName: "dir"))
    var templates: String? = nil

    @Option(help: ArgumentHelp("The port to listen on, on 127.0.0.1 (0 picks a free one).", valueName: "n"))
    var port: UInt16 = 8000

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try Terminal.guarded {
            try Self.requireFolder(global.content)
            try SiteRun.checkOutput(out, content: global.content, templates: templates ?? SiteRun.templatesBeside(global.content))
        }
        let builds = BuildCounter()
        let rebuilder = Rebuilder(
            site: SiteRun(global: global, out: out, templates: templates, showsProgress: false),
            watched: [global.content, templates ?? SiteRun.templatesBeside(global.content)], builds: builds)
        let root = URL(fileURLWithPath: out).standardizedFileURL.path
        let server = HTTPServer(
            config: .init(address: try sockaddr_in.inet(ip4: "127.0.0.1", port: port), logger: .disabled),
            handler: SiteHandler(folder: SiteFolder(root: root), builds: builds))
        let showsProgress = isatty(FileHandle.standardError.fileDescriptor) != 0
        let folderName = FileSystem.trimmingTrailingSlashes(out)

        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                group.addTask {
                    try await server.waitUntilListening()
                    let address = await server.listeningAddress
                    guard case .ip4(_, let actual)? = address else { throw SocketError.unsupportedAddress }
                    let before = await rebuilder.start(showsProgress: showsProgress)
                    Self.say("Serving \(folderName)/ at http://127.0.0.1:\(actual)/ (Ctrl-C to stop)")
                    try await rebuilder.watch(since: before)
                }
                group.addTask { _ = await StopSignal.next() }
                // The first to finish decides: a stop signal, or the server failing to listen.
                try await group.next()
                await server.stop()
                group.cancelAll()
            }
        } catch let error as SocketError {
            Terminal.error("error: \(Self.explain(error, port: port))")
            throw ExitCode.failure
        }
    }

    /// Without a content directory there is nothing to build or watch: fail at once rather than
    /// serve an empty folder.
    static func requireFolder(_ content: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: content, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Diagnostics([.plain("no content directory at '\(content)'; pass --content or run 'prolific init'")])
        }
    }

    /// One line on standard output, written at once even when it is a pipe (tests read the port).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// `port 8000 on 127.0.0.1 is already in use; choose another with --port`.
    static func explain(_ error: SocketError, port: UInt16) -> String {
        if case .failed(_, let number, let message) = error {
            if number == EADDRINUSE { return "port \(port) on 127.0.0.1 is already in use; choose another with --port" }
            if number == EACCES { return "not allowed to listen on port \(port); choose another with --port" }
            return "cannot listen on 127.0.0.1:\(port): \(message)"
        }
        return "cannot listen on 127.0.0.1:\(port): \(error.localizedDescription)"
    }
}
