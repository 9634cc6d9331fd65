extension Round {
    /// A snippet a maintainer hid (`moderate hide`): kept in round.md with who, when and why, so
    /// the record travels with the content and a re-run of the tally sees what the close saw.
    public struct Hidden: Hashable, Sendable {
        public var id: SubmissionID
        /// Who hid it: a maintainer's handle or name, as they gave it.
        public var by: String
        public var at: Timestamp
        /// Why, in one line; shown to maintainers, never on the site.
        public var reason: String

        public init(id: SubmissionID, by: String, at: Timestamp, reason: String) {
            self.id = id
            self.by = by
            self.at = at
            self.reason = reason
        }
    }

    /// The entry that hides `id`, if any.
    public func hiding(_ id: SubmissionID) -> Hidden? {
        hidden.first { $0.id == id }
    }
}
