import ArgumentParser

/// `prolific`: a collaborative finish-the-story game played in a folder of Markdown files.
public struct Prolific: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "prolific",
        abstract: "A collaborative finish-the-story game played in a folder of Markdown files.",
        discussion: """
            A project starts with starter text. Each round, contributors submit snippets and vote; \
            a maintainer closes the round and the winning snippet continues the story.
            """,
        version: "0.1.0",
        subcommands: [
            InitCommand.self, UserCommand.self, ProjectCommand.self, SubmitCommand.self, VoteCommand.self,
            NewCommand.self, FollowCommand.self, UnfollowCommand.self,
            CloseCommand.self, ModerateCommand.self, AuditCommand.self, StatusCommand.self, CheckCommand.self, BuildCommand.self,
            ServeCommand.self,
        ]
    )

    public init() {}
}
