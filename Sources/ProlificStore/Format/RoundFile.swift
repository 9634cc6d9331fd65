import ProlificCore
import Yams

/// `rounds/NNNN/round.md`: `opened`, `closes`, any `extended` deadlines; written at close:
/// `closed`, `winner`, `tally`, `votes` (its ballots, `RoundFile+Votes`), `sealed`; by
/// `moderate hide`: `hidden`. The body is an optional note from the maintainers.
///
/// ```yaml
/// tally:
///   method: plain-1
///   ballots: 4
///   scores:
///     ann-20261102101500: 2.5
///     bram-20261103093000: 1.5
/// ```
enum RoundFile {
    static func parse(_ text: String, path: String, number: RoundNumber) throws(Diagnostics) -> Round {
        var (fields, document) = try FrontMatter.fields(of: text, path: path)
        let opened = fields.timestamp("opened")
        let closes = fields.timestamp("closes")
        var extensions: [Round.Extension] = []
        for (index, var entry) in (fields.mappings("extended") ?? []).enumerated() {
            if let at = entry.timestamp("at"), let from = entry.timestamp("from") {
                extensions.append(Round.Extension(at: at, from: from))
            }
            entry.finish()
            fields.absorb(entry, prefix: "extended.\(index)")
        }
        let closed = fields.timestamp("closed", required: false)
        let winner = fields.submissionID("winner", required: false)
        var tally: TallyRecord? = nil
        if var nested = fields.mapping("tally") {
            let method = nested.string("method")
            let ballots = nested.integer("ballots", in: 0...Int(Int32.max))
            var scores: [TallyRecord.Score] = []
            if var scoreFields = nested.mapping("scores", required: true) {
                for pair in scoreFields.scalarPairs() {
                    guard let id = SubmissionID(pair.key), let value = pair.value.flatMap(Double.init), value.isFinite
                    else {
                        scoreFields.report("a score is '<submission id>: <number>', found '\(pair.key)'", at: pair.key)
                        continue
                    }
                    scores.append(TallyRecord.Score(id: id, score: value))
                }
                nested.absorb(scoreFields, prefix: "scores")
            }
            nested.finish()
            fields.absorb(nested, prefix: "tally")
            if let method, let ballots { tally = TallyRecord(method: method, ballots: ballots, scores: scores) }
        }
        let votes = parseVotes(&fields)
        let hidden = parseHidden(&fields)
        let seal = parseSeal(&fields)
        if votes != nil, fields.isValid, seal == nil || closed == nil {
            fields.report("'votes' records the ballots of a closed, sealed round: it needs 'closed' and 'sealed' beside it", at: "votes")
        }
        fields.finish()
        guard fields.isValid, let opened, let closes else { throw Diagnostics(fields.diagnostics) }
        // The recorded ballots share the round's origin: each finds its line as `votes.<voter>`
        // (`Ballot.position(of:)`), and a build keeps 180,000 of them on large.
        let origin = fields.origin
        return Round(
            number: number, opened: opened, closes: closes, closed: closed, winner: winner, tally: tally,
            extensions: extensions, note: document.body, hidden: hidden, seal: seal,
            recordedBallots: votes?.map { Ballot(voter: $0.voter, cast: $0.cast, choices: $0.choices, origin: origin) },
            origin: origin)
    }

    static func render(_ round: Round) throws(AtomicFile.Failure) -> String {
        var yaml = YAMLWriter()
        yaml.plain("opened", round.opened)
        yaml.plain("closes", round.closes)
        if !round.extensions.isEmpty {
            yaml.node(
                "extended",
                Node(
                    round.extensions.map { e in
                        var entry = YAMLWriter()
                        entry.plain("at", e.at)
                        entry.plain("from", e.from)
                        return entry.mapping
                    }))
        }
        if let closed = round.closed { yaml.plain("closed", closed) }
        if let winner = round.winner { yaml.text("winner", winner.rawValue) }
        if let tally = round.tally {
            var nested = YAMLWriter()
            nested.text("method", tally.method)
            nested.plain("ballots", tally.ballots)
            var scores = YAMLWriter()
            for score in tally.scores { scores.node(score.id.rawValue, Node(Tally.format(score.score))) }
            nested.node("scores", scores.isEmpty ? Node([(Node, Node)]()) : scores.mapping)
            yaml.node("tally", nested.mapping)
        }
        if let recorded = round.recordedBallots { yaml.node("votes", votesNode(recorded)) }
        if !round.hidden.isEmpty { yaml.node("hidden", hiddenNode(round.hidden)) }
        if let seal = round.seal { yaml.node("sealed", sealNode(seal)) }
        return FrontMatter.join(yaml: try yaml.yaml(), body: round.note)
    }
}
