/// A project's story, derived from the files: the starter text, then each closed round's winner.
public struct Story: Sendable {
    public struct Chapter: Sendable {
        /// nil for the starter text.
        public var round: RoundNumber?
        public var author: Handle
        public var markdown: String
        public var submission: SubmissionID?
    }

    public var chapters: [Chapter]

    public init(_ project: Project) {
        var chapters = [Chapter(round: nil, author: project.owner, markdown: project.starter, submission: nil)]
        for round in project.rounds {
            guard let winner = round.winningSubmission else { continue }
            chapters.append(
                Chapter(round: round.number, author: winner.author, markdown: winner.body, submission: winner.id))
        }
        self.chapters = chapters
    }
}
