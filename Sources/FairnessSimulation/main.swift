import ProlificCore

/// `make fairness`: plays every scenario with plain counting and with the fair tally, over several
/// seeds, and prints the table that docs/ranking.md keeps.
let rounds = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 600
let seeds: [UInt64] = [11, 23, 37]

func percent(_ n: Int, _ d: Int) -> String {
    d == 0 ? "-" : String(Double(Int((Double(n) / Double(d) * 1000).rounded())) / 10) + "%"
}

func run(_ scenario: Scenario, _ method: Simulation.Method) -> Simulation.Result {
    var total = Simulation.Result()
    for seed in seeds {
        var simulation = Simulation(scenario: scenario, method: method, rounds: rounds, seed: seed)
        let r = simulation.run()
        total.attackedRounds += r.attackedRounds
        total.successes += r.successes
        total.rounds += r.rounds
        total.unchanged += r.unchanged
        total.bestWins += r.bestWins
        total.agreesWithPlain += r.agreesWithPlain
        total.disagreement += r.disagreement
    }
    return total
}

print("Fairness simulation: \(rounds) rounds after \(Simulation.warmUp) warm-up rounds, seeds \(seeds.map(String.init).joined(separator: ", ")); \(Simulation.writers) writers, \(Simulation.honestVoters) honest voters.")
print("")
print("| scenario | measure | plain counting | fair tally |")
print("| --- | --- | --- | --- |")
for scenario in Scenario.allCases {
    let plain = run(scenario, .plain), fair = run(scenario, .fair)
    switch scenario {
    case .none:
        print("| \(scenario) | best snippet wins | \(percent(plain.bestWins, plain.rounds)) | \(percent(fair.bestWins, fair.rounds)) |")
        print("| \(scenario) | agrees with plain counting | 100% | \(percent(fair.agreesWithPlain, fair.rounds)) |")
    case .approveEverything:
        print("| \(scenario) | winners unchanged | \(percent(plain.unchanged, plain.rounds)) | \(percent(fair.unchanged, fair.rounds)) |")
    case .bury:
        print("| \(scenario) | front-runner buried | \(percent(plain.successes, plain.rounds)) | \(percent(fair.successes, fair.rounds)) |")
        print("| \(scenario) | honest disagreement (3 honest voters instead) | \(percent(plain.disagreement, plain.rounds)) | \(percent(fair.disagreement, fair.rounds)) |")
    default:
        print("| \(scenario) | attack success | \(percent(plain.successes, plain.attackedRounds)) | \(percent(fair.successes, fair.attackedRounds)) |")
    }
}
