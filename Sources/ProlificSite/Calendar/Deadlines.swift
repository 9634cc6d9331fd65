import ProlificCore

/// An upcoming round deadline: a listed story's open round that closes after the moment.
///
/// The story and its round are named by their places (in `SiteModel.listed`, among its rounds)
/// and read in place: a deadline holding copies of both retained every string and list of each,
/// for 2,000 open rounds at every build of the large benchmark. Worked out once, by the model
/// (`SiteModel.deadlines`), where the calendar's file and its page each worked them out again.
struct Deadline {
    /// The story's index in `SiteModel.listed`.
    var project: Int
    /// Its open round's index among its rounds.
    var round: Int
    var closes: Timestamp

    /// Every story of `listed` (`SiteModel.listed`) whose open round closes after `now`, the
    /// soonest first (then by slug).
    static func upcoming(in listed: [Project], now: Timestamp) -> [Deadline] {
        var deadlines: [Deadline] = []
        for p in listed.indices {
            guard let r = listed[p].rounds.indices.last, listed[p].rounds[r].isOpen,
                listed[p].rounds[r].closes > now, !SiteModel.isComplete(listed[p])
            else { continue }
            deadlines.append(Deadline(project: p, round: r, closes: listed[p].rounds[r].closes))
        }
        deadlines.sort { a, b in (a.closes, listed[a.project].slug) < (b.closes, listed[b.project].slug) }
        return deadlines
    }
}
