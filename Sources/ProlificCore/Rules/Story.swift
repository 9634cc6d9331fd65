/// A project's story, derived from the files: the starter text, then each closed round's winner.
public struct Story: Sendable {
    public struct Chapter: Sendable {
        /// nil for the starter text.
        public var round: RoundNumber?
        public var author: Handle
        /// The chapter's Markdown as held: a story made only for its authors (an EPUB's inputs)
        /// doesn't make its texts.
        public var text: SnippetText
        public var submission: SubmissionID?

        public var markdown: String { text.string }
    }

    public var chapters: [Chapter]

    public init(_ project: Project) {
        var chapters = [Chapter(round: nil, author: project.owner, text: SnippetText(project.starter), submission: nil)]
        for round in project.rounds {
            guard let winner = round.winningSubmission else { continue }
            chapters.append(
                Chapter(round: round.number, author: winner.author, text: winner.text, submission: winner.id))
        }
        self.chapters = chapters
    }
}
