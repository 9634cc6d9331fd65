import ArgumentParser
import Foundation
import ProlificCore
import ProlificStore

/// `prolific build`: renders the content into a static site.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render the content into a static site.",
        discussion: """
            Templates come from --templates, else from a Templates folder beside the content directory, else \
            from the defaults built into prolific. The site is written to a new folder and swapped in, so a \
            failed build leaves the previous site as it was. On a terminal, progress is shown while pages render.
            """)

    @Option(help: ArgumentHelp("The folder to write the site to.", valueName: "dir"))
    var out: String = "Site"

    @Option(help: ArgumentHelp("The templates folder (default: Templates beside the content directory).", valueName: "dir"))
    var templates: String? = nil

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Also print the seconds (wall and CPU) spent loading, rendering and writing.")
    var timings = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        // The process ends with the build: what the build lets go of is left to its exit.
        Parallel.leaveReleasedToExit()
        try Terminal.guarded {
            let terminal = isatty(FileHandle.standardError.fileDescriptor) != 0
            let run = SiteRun(global: global, out: out, templates: templates, showsProgress: terminal && !quiet)
            let summary = try run.run()
            for warning in summary.warnings { Terminal.error(warning) }
            if !quiet { Terminal.error(summary.line(out: out)) }
            if timings {
                Terminal.error(summary.phases.map(\.line).joined(separator: ", "))
                if let evidence = summary.evidence { Terminal.error(evidence) }
                if let replay = summary.replay { Terminal.error(replay) }
                if let standings = summary.standings { Terminal.error(standings) }
            }
        }
    }
}
