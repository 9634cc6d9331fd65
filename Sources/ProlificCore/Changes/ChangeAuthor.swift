/// Who made a commit, as the pull-request checks judge it.
///
/// The email is the commit's author email: what a contributor controls on a pull request, and
/// what forges verify nothing about. The forge login, when the check is told it, is the one thing
/// the forge vouches for.
public struct ChangeAuthor: Hashable, Sendable {
    /// The commit's author email, as git recorded it.
    public var email: String
    /// The forge login that opened the pull request, when the check was told it.
    public var forgeLogin: String?
    /// Whether the commit is trusted as a maintainer's: it may do anything the CLI does.
    public var isMaintainer: Bool
    /// When the commit was made (its committer time): no entry it adds may be stamped later.
    public var time: Timestamp

    public init(email: String, forgeLogin: String? = nil, isMaintainer: Bool = false, time: Timestamp) {
        self.email = email
        self.forgeLogin = forgeLogin
        self.isMaintainer = isMaintainer
        self.time = time
    }
}
