import Foundation
import ProlificCore
import ProlificStore

/// Writes a deterministic synthetic content directory of a given size, played through the real
/// rules: every closed round is tallied by `FairTally` against the history before it, so `check`
/// passes on the result and benchmarks measure real work.
struct Generator {
    struct Size {
        var projects: Int
        var rounds: Int
        var snippets: Int
        var users: Int
        var ballots: ClosedRange<Int>

        static let presets: [String: Size] = [
            "small": Size(projects: 50, rounds: 5, snippets: 4, users: 100, ballots: 3...15),
            "medium": Size(projects: 500, rounds: 8, snippets: 5, users: 1000, ballots: 3...15),
            "large": Size(projects: 2000, rounds: 10, snippets: 5, users: 5000, ballots: 3...15),
            "huge-ballots": Size(projects: 2000, rounds: 10, snippets: 5, users: 5000, ballots: 15...35),
        ]
    }

    let size: Size
    var random: SplitMix64
    let out: String
    let start = Timestamp(year: 2025, month: 1, day: 1)

    init(size: Size, out: String, seed: UInt64) {
        self.size = size
        self.out = out
        random = SplitMix64(seed: seed)
    }

    func handle(_ i: Int) -> Handle { Handle("u\(i)")! }

    mutating func run() throws {
        let layout = ContentLayout(root: out)
        let manager = FileManager.default
        try? manager.removeItem(atPath: out)
        try manager.createDirectory(atPath: layout.usersFolder, withIntermediateDirectories: true)
        try manager.createDirectory(atPath: layout.projectsFolder, withIntermediateDirectories: true)
        func write(_ text: String, _ path: String) throws {
            let folder = (path as NSString).deletingLastPathComponent
            if !manager.fileExists(atPath: folder) { try manager.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            guard manager.createFile(atPath: path, contents: Data(text.utf8)) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
        }
        var config = Config.defaults(title: "Benchmark", baseURL: "https://example.org/")
        config.rounds = size.rounds
        try write(try ContentFiles.config(config), layout.configFile)

        var joined: [Handle: Timestamp] = [:]
        for i in 0..<size.users {
            let h = handle(i)
            let time = Timestamp(secondsSinceEpoch: start.secondsSinceEpoch - 86_400 * 60 + Int64(i) * 97)
            joined[h] = time
            let user = User(handle: h, name: "User \(i)", joined: time, bio: words(12...30), origin: Origin(path: ""))
            try write(try ContentFiles.user(user), layout.userFile(h))
        }

        // Projects start a few hours apart; each runs its rounds back to back, 7 days each. The
        // last round of every project stays open, so builds and closes have work to do.
        let length = TimeSpan(seconds: 7 * 86_400)!
        var projects: [Project] = []
        var events: [(time: Timestamp, project: Int, round: Int)] = []
        for p in 0..<size.projects {
            let created = Timestamp(secondsSinceEpoch: start.secondsSinceEpoch + Int64(p) * 3 * 3600)
            let slug = Slug("p\(p)")!
            let project = Project(
                slug: slug, title: "Project \(p): \(words(2...5))", owner: handle(Int(random.next() % UInt64(size.users))),
                created: created, roundLimit: size.rounds, roundLength: length, tags: ["tag\(p % 7)"], starter: markdown(),
                origin: Origin(path: ""))
            projects.append(project)
            for r in 0..<size.rounds {
                events.append((created + TimeSpan(seconds: length.seconds * Int64(r + 1))!, p, r))
            }
        }
        events.sort { ($0.time, $0.project) < ($1.time, $1.project) }
        var history = VotingHistory()
        var pending: [(Slug, Round)] = []
        var pendingTime: Timestamp? = nil
        var started = 0
        let order = projects.indices.sorted { projects[$0].created < projects[$1].created }
        for event in events {
            let project = projects[event.project]
            // Rounds closing at the same moment don't see each other, as in `check`'s replay.
            if let time = pendingTime, time < event.time {
                // In the order `TallyTimeline` replays them: by slug as text, then number.
                for (_, round) in pending.sorted(by: { $0.0.rawValue < $1.0.rawValue }) { history.record(round) }
                pending = []
            }
            pendingTime = event.time
            while started < order.count, projects[order[started]].created < event.time {
                history.recordProject(owner: projects[order[started]].owner)
                started += 1
            }
            let number = RoundNumber(event.round + 1)!
            let opened = Timestamp(secondsSinceEpoch: event.time.secondsSinceEpoch - length.seconds)
            var round = Round(number: number, opened: opened, closes: event.time, origin: Origin(path: ""))
            var authors: Set<Int> = []
            while authors.count < size.snippets { authors.insert(Int(random.next() % UInt64(size.users))) }
            for (k, a) in authors.sorted().enumerated() {
                let time = opened + TimeSpan(seconds: Int64(3600 * (k + 1)))!
                let id = SubmissionID(author: handle(a), time: time)
                round.submissions.append(
                    Submission(id: id, author: handle(a), submitted: time, body: markdown(), origin: Origin(path: "")))
            }
            let count = size.ballots.lowerBound + Int(random.next() % UInt64(size.ballots.count))
            var voters: Set<Int> = []
            while voters.count < count { voters.insert(Int(random.next() % UInt64(size.users))) }
            for (k, v) in voters.sorted().enumerated() {
                let choices = round.submissions.filter { $0.author != handle(v) }
                guard !choices.isEmpty else { continue }
                var ids = [choices[Int(random.next() % UInt64(choices.count))].id]
                if random.next() % 3 == 0, let other = choices.first(where: { $0.id != ids[0] }) { ids.append(other.id) }
                let cast = opened + TimeSpan(seconds: Int64(86_400 + 600 * k))!
                round.ballots.append(Ballot(voter: handle(v), cast: cast, choices: ids, origin: Origin(path: "")))
            }
            let isLast = event.round == size.rounds - 1
            if !isLast {
                round.closed = event.time
                let context = TallyContext(history: history, joined: joined)
                let outcome = FairTally.count(round, slug: project.slug, context: context)
                round.winner = outcome.winner
                round.tally = outcome.record
                pending.append((project.slug, round))
            } else {
                round.closes = Timestamp(secondsSinceEpoch: 4_102_444_800)  // 2100: still open
            }
            let slug = project.slug
            for s in round.submissions { try write(try ContentFiles.submission(s), layout.submissionFile(slug, number, s.id)) }
            for b in round.ballots { try write(try ContentFiles.ballot(b), layout.ballotFile(slug, number, b.voter)) }
            // Sealed as `close` seals a round: over the files just written.
            if round.closed != nil {
                round.seal = try RoundSeal(layout: layout).seal(slug, number)
                round.recordedBallots = round.ballots
            }
            try write(try ContentFiles.round(round), layout.roundFile(slug, number))
        }
        for project in projects { try write(try ContentFiles.project(project), layout.projectFile(project.slug)) }
    }

    static let vocabulary = """
        the a lantern harbour quiet night storm keeper letter door window river stone garden winter \
        light shadow voice small old new strange bright cold warm silver iron salt glass paper \
        walked waited listened whispered opened found remembered carried watched turned followed \
        slowly almost never again always suddenly somewhere nobody everything together alone
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)

    mutating func words(_ range: ClosedRange<Int>) -> String {
        let n = range.lowerBound + Int(random.next() % UInt64(range.count))
        return (0..<n).map { _ in Self.vocabulary[Int(random.next() % UInt64(Self.vocabulary.count))] }.joined(separator: " ")
    }

    /// 60–200 words of varied Markdown: paragraphs, emphasis, links, quotes and lists.
    mutating func markdown() -> String {
        var parts: [String] = []
        var total = 0
        let target = 60 + Int(random.next() % 141)
        while total < target {
            let n = min(target - total, 12 + Int(random.next() % 30))
            var text = words(n...n)
            switch random.next() % 6 {
            case 0: text = "*" + text + "*"
            case 1: text = text.replacingOccurrences(of: " light ", with: " **light** ")
            case 2: text += " [more](https://example.org/\(random.next() % 1000))."
            case 3: text = "> " + text
            case 4: text = "- " + words(3...6) + "\n- " + words(3...6) + "\n- " + words(3...6)
            default: text = text.prefix(1).uppercased() + text.dropFirst() + "."
            }
            parts.append(text)
            total += n
        }
        return parts.joined(separator: "\n\n")
    }
}
