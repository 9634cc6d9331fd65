import Foundation
import Testing

/// `make install` and `make uninstall` into a temporary DESTDIR, with the binary under test.
@Suite(.enabled(if: Shell.has("make") && Shell.has("python3"))) struct InstallTests {
    let destination: TemporaryFolder
    let installed = [
        "usr/local/bin/prolific", "usr/local/share/man/man1/prolific.1",
        "usr/local/share/bash-completion/completions/prolific", "usr/local/share/zsh/site-functions/_prolific",
        "usr/local/share/fish/vendor_completions.d/prolific.fish", "usr/local/bin/prolific-serve",
    ]

    init() throws { destination = try TemporaryFolder() }

    func make(_ target: String) throws -> Shell.Result {
        try Shell.run(
            [
                "make", "--no-print-directory", target, "BINARY=\(CLI.executable.path)", "DESTDIR=\(destination.url.path)",
                "PREFIX=/usr/local",
            ], in: Repository.root)
    }

    @Test func installsTheBinaryManPageAndCompletionsThenRemovesThem() throws {
        let result = try make("install")
        for file in installed {
            #expect(destination.exists(file), "\(file) was not installed: \(result.output)")
        }
        let binary = destination.url.appendingPathComponent("usr/local/bin/prolific")
        #expect(try Shell.run([binary.path, "--version"], in: destination.url).output == "0.1.0\n")
        let bash = destination.url.appendingPathComponent(installed[2]).path
        let completion = try Shell.run(["bash", "-c", "source '\(bash)' && complete -p prolific"], in: destination.url)
        #expect(completion.output.contains("prolific"))
        // `prolific serve` runs the prolific-serve installed beside it, which finds the prolific
        // beside it before it checks the content.
        let serve = try Shell.attempt([binary.path, "serve", "--content", "Missing"], in: destination.url)
        #expect(serve.status == 1)
        #expect(serve.errors == "error: no content directory at 'Missing'; pass --content or run 'prolific init'\n")

        _ = try make("uninstall")
        for file in installed { #expect(!destination.exists(file), "\(file) was not removed") }
    }

    @Test func theManPageDescribesEveryCommandAndRendersCleanly() throws {
        _ = try make("install")
        let page = try destination.read(installed[1])
        #expect(page.hasPrefix(".TH PROLIFIC 1 "))
        for command in ["prolific submit", "prolific vote", "prolific new submission", "prolific new ballot", "prolific follow",
            "prolific unfollow", "prolific close", "prolific user add", "prolific project new", "prolific check", "prolific build"]
        {
            #expect(page.contains(".SS \(command)\n"), "no section for \(command)")
        }
        #expect(page.contains("\\fB\\-\\-commit\\fR"))
        #expect(page.contains(".I reports/\n"), "FILES lists reports/")
        #expect(page.contains(".SH ENVIRONMENT\n.TP\n.B PROLIFIC_FORGE_LOGIN\n"))
        // No line may start with a roff control character by accident.
        for line in page.split(separator: "\n") where line.hasPrefix("'") { Issue.record("line starts with a quote: \(line)") }

        guard Shell.has("groff") else { return }
        let path = destination.url.appendingPathComponent(installed[1]).path
        let lint = try Shell.run(["groff", "-man", "-ww", "-z", path], in: destination.url)
        #expect(lint.errors.isEmpty, "groff warns: \(lint.errors)")
        let text = try Shell.run(["groff", "-man", "-Tutf8", "-P", "-cbou", path], in: destination.url).output
        #expect(text.contains("prolific new ballot"))
        #expect(text.contains("EXIT STATUS"))
        if Shell.has("man") {
            let shown = try Shell.run(["man", "-l", path], in: destination.url, environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
            #expect(shown.output.contains("PROLIFIC(1)"))
        }
    }
}
