import ProlificCore

/// The text of each kind of content file, for tools that write content in bulk (the benchmark
/// generator) rather than one action at a time through `Game`.
public enum ContentFiles {
    public static func config(_ config: Config) throws(AtomicFile.Failure) -> String { try ConfigFile.render(config) }
    public static func user(_ user: User) throws(AtomicFile.Failure) -> String { try UserFile.render(user) }
    public static func project(_ project: Project) throws(AtomicFile.Failure) -> String { try ProjectFile.render(project) }
    public static func round(_ round: Round) throws(AtomicFile.Failure) -> String { try RoundFile.render(round) }
    public static func submission(_ submission: Submission) throws(AtomicFile.Failure) -> String {
        try SubmissionFile.render(submission)
    }
    public static func ballot(_ ballot: Ballot) throws(AtomicFile.Failure) -> String { try BallotFile.render(ballot) }
}
