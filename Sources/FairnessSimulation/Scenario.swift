/// The attacks the simulation plays against the tally.
enum Scenario: CaseIterable, CustomStringConvertible {
    case none
    case sockpuppets5, sockpuppets15, sockpuppets40
    case sleepers, sleepersStaggered, sleepersWithGit
    case pair, ring
    case oneFan, fiveFans
    case approveEverything
    case bury

    var description: String {
        switch self {
        case .none: "no attack"
        case .sockpuppets5: "5 fresh sockpuppets"
        case .sockpuppets15: "15 fresh sockpuppets"
        case .sockpuppets40: "40 fresh sockpuppets"
        case .sleepers: "10 aged sleepers, votes alone"
        case .sleepersStaggered: "10 aged sleepers that joined a week apart"
        case .sleepersWithGit: "10 aged sleepers, with git identity"
        case .pair: "reciprocal pair"
        case .ring: "ring of four"
        case .oneFan: "one fan"
        case .fiveFans: "five fans"
        case .approveEverything: "3 voters approve everything"
        case .bury: "3 voters bury the front-runner"
        }
    }

    /// Fresh accounts made for each attacked round.
    var freshPuppets: Int {
        switch self {
        case .sockpuppets5: 5
        case .sockpuppets15: 15
        case .sockpuppets40: 40
        default: 0
        }
    }

    /// Writers who back each other (the first is the target).
    var colluders: Int {
        switch self {
        case .pair: 2
        case .ring: 4
        default: 1
        }
    }

    /// Standing accounts that always back the target.
    var fans: Int {
        switch self {
        case .oneFan: 1
        case .fiveFans: 5
        case .sleepers, .sleepersStaggered, .sleepersWithGit: 10
        default: 0
        }
    }

    var isSleepers: Bool { self == .sleepers || self == .sleepersStaggered || self == .sleepersWithGit }
}
