/// What a file of the content directory is, told by its path alone: whose it is follows from it.
///
/// The pull-request checks judge each file a commit touches by its kind, so a path is classified
/// once, by the store (which owns the layout), and the rules see only this value.
public enum ContentFile: Hashable, Sendable {
    /// `prolific.yml`: the maintainers'.
    case config
    /// `users/<handle>.md`: the player's profile.
    case profile(Handle)
    /// An image beside the profiles named by a handle, `users/<handle>.png`: the player's avatar.
    case avatar(Handle)
    /// `projects/<slug>/project.md`: the CLI's, and its owner's for title, tags and starter text.
    case project(Slug)
    /// `projects/<slug>/rounds/NNNN/round.md`: the CLI's.
    case round(Slug, RoundNumber)
    /// `projects/<slug>/rounds/NNNN/submissions/<id>.md`: its author's.
    case submission(Slug, RoundNumber, SubmissionID)
    /// `projects/<slug>/rounds/NNNN/votes/<voter>.yml`: its voter's.
    case ballot(Slug, RoundNumber, Handle)
    /// `reports/<reporter>-<time>.md`: a reader's report of a snippet, anyone's to file.
    case report(ReportID)
    /// Anything else (images beside projects and rounds, stray files): the maintainers'.
    case other
}
