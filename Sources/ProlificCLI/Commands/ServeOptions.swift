import ArgumentParser

/// The options of `prolific serve`, shared by the command `prolific` shows in its help and the
/// `prolific-serve` program that runs the server (`ServeCommand`).
package struct ServeOptions: ParsableArguments, Sendable {
    package static let abstract = "Build the site, serve it on this computer and rebuild it when the content changes."
    package static let discussion = """
        The site is built into --out as by `prolific build`, then served at http://127.0.0.1:PORT/ only. \
        The content directory and the templates folder are watched; after each change the site is rebuilt \
        and open pages reload. A build that fails prints its errors and the previous site stays served. \
        Without --now, each build uses the current time. Stop with Ctrl-C.
        """

    @Option(help: ArgumentHelp("The folder to write the site to.", valueName: "dir"))
    package var out: String = "Site"

    @Option(help: ArgumentHelp("The templates folder (default: Templates beside the content directory).", valueName: "dir"))
    package var templates: String? = nil

    @Option(help: ArgumentHelp("The port to listen on, on 127.0.0.1 (0 picks a free one).", valueName: "n"))
    package var port: UInt16 = 8000

    @Flag(
        help: ArgumentHelp(
            "Look for changes by scanning the folders every half second instead of by the kernel's events "
                + "(for network and container file systems that don't report them)."))
    package var poll = false

    @OptionGroup package var global: GlobalOptions

    package init() {}

    /// Arguments that parse back into these very options: what `prolific serve` hands on to
    /// `prolific-serve`, rather than its own command line, which it has already checked.
    package var arguments: [String] { buildArguments + ["--port=\(port)"] + (poll ? ["--poll"] : []) }

    /// The options of `prolific build` among these, for each build `prolific-serve` runs. Each as
    /// `--name=value`, so a value that starts with a dash (`--out=-Site`) stays a value.
    package var buildArguments: [String] {
        var arguments = ["--content=\(global.content)", "--out=\(out)"]
        if let templates { arguments.append("--templates=\(templates)") }
        if let now = global.now { arguments.append("--now=\(now.iso8601)") }
        return arguments
    }
}
