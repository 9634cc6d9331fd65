import FuzzSupport
import ProlificCore
import ProlificStore

/// `check --since` judges a change by its path alone (`ContentLayout.file(at:)`): a path given an
/// identity must be exactly the file `ContentLayout` puts there, or a player could pass a change to
/// someone else's file as their own.
enum PathChecks {
    static func run(_ path: String) {
        let layout = ContentLayout(root: ".")
        guard let file = ContentLayout.file(at: path) else {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            Property.require(parts.contains { $0.hasPrefix(".") }, "\(String(reflecting: path)) is ignored but has no hidden part")
            return
        }
        let expected: String? =
            switch file {
            case .config: layout.configFile
            case .profile(let handle): layout.userFile(handle)
            case .project(let slug): layout.projectFile(slug)
            case .round(let slug, let number): layout.roundFile(slug, number)
            case .submission(let slug, let number, let id): layout.submissionFile(slug, number, id)
            case .ballot(let slug, let number, let voter): layout.ballotFile(slug, number, voter)
            case .report(let id): layout.reportFile(id)
            case .avatar(let handle): path.hasPrefix("users/\(handle.rawValue).") ? nil : "./users/\(handle.rawValue).<image>"
            case .other: nil
            }
        if let expected {
            Property.require("./" + path == expected, "\(String(reflecting: path)) is classified as \(file), whose path is \(expected)")
        }
    }
}
