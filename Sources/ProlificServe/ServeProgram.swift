import ArgumentParser
import FlyingFox
import FlyingSocks
import Foundation
import ProlificCLI
import ProlificCore
import ProlificStore

/// `prolific-serve`, which `prolific serve` runs: builds the site, serves it on this computer, and
/// rebuilds it on every change.
///
/// For writing content and themes: the browser reloads by itself after each rebuild. It listens on
/// 127.0.0.1 only, so nobody else on the network can read unpublished content.
public struct ServeProgram: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "prolific-serve", abstract: ServeOptions.abstract, discussion: ServeOptions.discussion)

    @OptionGroup var options: ServeOptions

    public init() {}

    public func run() async throws {
        let content = options.global.content
        let templates = options.templates ?? SiteRun.templatesBeside(content)
        let prolific = try Terminal.guarded {
            let prolific = try Self.builder()
            try Self.requireFolder(content)
            try SiteRun.checkOutput(options.out, content: content, templates: templates)
            return prolific
        }
        let builds = BuildCounter()
        let rebuilder = Rebuilder(
            site: SiteBuild(program: prolific, arguments: ["build"] + options.buildArguments),
            watched: [content, templates], builds: builds)
        let root = URL(fileURLWithPath: options.out).standardizedFileURL.path
        let server = HTTPServer(
            config: .init(address: try sockaddr_in.inet(ip4: "127.0.0.1", port: options.port), logger: .disabled),
            handler: SiteHandler(folder: SiteFolder(root: root), builds: builds))
        let folderName = FileSystem.trimmingTrailingSlashes(options.out)
        let poll = options.poll

        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await server.run() }
                group.addTask {
                    try await server.waitUntilListening()
                    let address = await server.listeningAddress
                    guard case .ip4(_, let actual)? = address else { throw SocketError.unsupportedAddress }
                    let watch = await rebuilder.start(poll: poll)
                    // Stopped during the first build.
                    try Task.checkCancellation()
                    Self.say("Serving \(folderName)/ at http://127.0.0.1:\(actual)/ (Ctrl-C to stop)")
                    try await rebuilder.watch(watch)
                }
                group.addTask { _ = await StopSignal.next() }
                // The first to finish decides: a stop signal, or the server failing to listen.
                // The builds are stopped first, so that none reports the stop as a failure.
                try await group.next()
                group.cancelAll()
                await server.stop()
            }
        } catch let error as SocketError {
            Terminal.error("error: \(Self.explain(error, port: options.port))")
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

    /// The `prolific` beside this program, which makes every build (`SiteBuild`).
    static func builder() throws -> String {
        guard let running = ServeLauncher.runningExecutable() else {
            throw Diagnostics([.plain("cannot find prolific-serve's own file, beside which prolific is")])
        }
        let path = ServeLauncher.path(of: "prolific", beside: running)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Diagnostics([
                .plain(
                    "no prolific at '\(path)': prolific-serve builds the site with the prolific in its own folder; "
                        + ServeLauncher.remedy)
            ])
        }
        return path
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
