import FuzzSupport
import ProlificCore

/// Names and ids are validated once, at the edge, then trusted as path components: whatever
/// parses must be exactly the text it came from, and must read back as itself.
enum IdentifierChecks {
    static func run(_ text: some StringProtocol) {
        let handle = Handle(text)
        let slug = Slug(text)
        // Handles and slugs share one rule (`NameRule`).
        Property.require((handle == nil) == (slug == nil), "handle and slug disagree about \(String(reflecting: text))")
        // A `String` goes through its own, non-generic check (`Handle.init(_: String)`).
        Property.require(
            (Handle(String(text)) == nil) == (handle == nil), "the String and generic handle checks disagree about \(String(reflecting: text))")
        if let handle {
            Property.require(handle.rawValue == text && Handle(handle.rawValue) == handle, "handle \(handle) is not its text")
            Property.require(isPathSafe(handle.rawValue), "handle \(String(reflecting: handle.rawValue)) is not a safe file name")
        }
        if let slug {
            Property.require(slug.rawValue == text && Slug(slug.rawValue) == slug, "slug \(slug) is not its text")
        }
        // A `Substring` is parsed in place (`SubmissionID.init(_: Substring)`), which the generic
        // form calls with its text made a `String` first: the same answer either way.
        Property.require(
            SubmissionID(Substring(String(text))) == SubmissionID(text),
            "the Substring and generic submission id parses disagree about \(String(reflecting: text))")
        if let id = SubmissionID(text) {
            Property.require(id.rawValue == text && SubmissionID(id.rawValue) == id, "submission id \(id) is not its text")
            Property.require(isPathSafe(id.rawValue), "submission id \(String(reflecting: id.rawValue)) is not a safe file name")
        }
        let report = ReportID(text)
        Property.require((report == nil) == (SubmissionID(text) == nil), "report and submission ids disagree about \(String(reflecting: text))")
        if let report {
            Property.require(report.rawValue == text && ReportID(report.rawValue) == report, "report id \(report) is not its text")
        }
        if let number = RoundNumber(folderName: text) {
            Property.require(number.folderName == text, "round folder \(String(reflecting: text)) is number \(number)")
        }
        if let value = Int(text), let number = RoundNumber(value) {
            Property.require(RoundNumber(folderName: number.folderName) == number, "round \(number)'s folder doesn't read back")
        }
        // Loose by design; they only must not trap, and an identity is the same as itself.
        if GitIdentity.isEmail(text) {
            Property.require(text.utf8.count <= GitIdentity.maximumEmailLength, "email too long accepted")
        }
        if GitIdentity.isLogin(text) {
            Property.require(!text.utf8.contains(UInt8(ascii: "/")), "a login with a '/'")
        }
        Property.require(GitIdentity.same(text, text), "an identity differs from itself")
    }

    /// One path component that can't climb out of its folder or collide by case: lower-case ASCII
    /// letters, digits and '-', not empty, never starting with '-' or '.'.
    static func isPathSafe(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "-") else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-")
        }
    }
}
