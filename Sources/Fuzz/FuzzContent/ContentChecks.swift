import FuzzSupport
import ProlificCore
import ProlificStore

/// What must hold for any file's text, valid or not.
///
/// - A file that parses renders (as the CLI would write it) and reads back as the same value: the
///   writer and the reader agree, so `prolific` never writes a file it can't read.
/// - A file that doesn't parse fails with at least one diagnostic, at its own path and at a line of
///   the file (`DiagnosticChecks`): `check` never fails silently or points nowhere.
enum ContentChecks {
    static func run(_ input: ContentInput) {
        let path = input.path
        switch input.kind {
        case .config:
            roundTrip(input, { (text) throws(Diagnostics) in try ContentFiles.parseConfig(text, path: path) }, ContentFiles.config) {
                // `render` writes only what `init` and `user remove` change: badges stay the maintainers' own text.
                var config = $0
                config.badges = []
                return config
            }
        case .user(let handle):
            roundTrip(input, { (text) throws(Diagnostics) in try ContentFiles.parseUser(text, path: path, handle: handle) }, ContentFiles.user) { $0 }
        case .project(let slug):
            roundTrip(input, { (text) throws(Diagnostics) in try ContentFiles.parseProject(text, path: path, slug: slug) }, ContentFiles.project) { $0 }
        case .round(let number):
            roundTrip(input, { (text) throws(Diagnostics) in try ContentFiles.parseRound(text, path: path, number: number) }, ContentFiles.round) {
                // Scores are kept to four decimals (`Tally.rounded`), as `Tally.format` writes them.
                var round = $0
                if let scores = round.tally?.scores {
                    round.tally?.scores = scores.map { TallyRecord.Score(id: $0.id, score: Tally.rounded($0.score)) }
                }
                return round
            }
        case .submission(let id):
            let submission = roundTrip(
                input, { (text) throws(Diagnostics) in try ContentFiles.parseSubmission(text, path: path, id: id) }, ContentFiles.submission) { $0 }
            if let submission { DiagnosticChecks.checkBodyPosition(of: submission, in: input.text) }
        case .ballot(let voter):
            roundTrip(input, { (text) throws(Diagnostics) in try ContentFiles.parseBallot(text, path: path, voter: voter) }, ContentFiles.ballot) { $0 }
        case .report(let id):
            roundTrip(input, { (text) throws(Diagnostics) in try ContentFiles.parseReport(text, path: path, id: id) }, ContentFiles.report) { $0 }
        }
    }

    /// Parses `input`; if it parses, renders the value and parses that, which must give the same
    /// value up to `comparable` (what the format deliberately doesn't keep) and where it was read.
    @discardableResult
    static func roundTrip<Value: Equatable & HasOrigin>(
        _ input: ContentInput, _ parse: (String) throws(Diagnostics) -> Value,
        _ render: (Value) throws(AtomicFile.Failure) -> String, comparable: (Value) -> Value
    ) -> Value? {
        let value: Value
        do { value = try parse(input.text) } catch {
            DiagnosticChecks.check(error, of: input)
            return nil
        }
        let text: String
        do { text = try render(value) } catch {
            Property.fail("\(input.path) parses but doesn't render: \(error)")
        }
        let again: Value
        do { again = try parse(text) } catch {
            Property.fail("\(input.path): the rendered file doesn't parse:\n\(text)\n\(error.all.map(\.description).joined(separator: "\n"))")
        }
        var (before, after) = (comparable(value), comparable(again))
        before.origin = Origin(path: "")
        after.origin = Origin(path: "")
        Property.require(before == after, "\(input.path) reads back differently:\n\(before)\n\(after)\nrendered:\n\(text)")
        return value
    }
}

/// The model values that remember where they were read; the round trip ignores that.
protocol HasOrigin {
    var origin: Origin { get set }
}

extension Config: HasOrigin {}
extension User: HasOrigin {}
extension Project: HasOrigin {}
extension Round: HasOrigin {}
extension Submission: HasOrigin {}
extension Ballot: HasOrigin {}
extension Report: HasOrigin {}
