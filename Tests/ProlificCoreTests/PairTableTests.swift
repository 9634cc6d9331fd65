import Testing

@testable import ProlificCore

/// The voting history's table of records by pair key: every key stored comes back with its
/// last record, through any number of growths; a key never stored is absent; each record is
/// visited once; and the order of a visit depends only on what was stored, in which order.
@Suite struct PairTableTests {
    /// Keys as the history makes them: voter id << 32 | author id, ids below 2^31.
    static func key(_ voter: Int, _ author: Int) -> UInt64 { UInt64(voter) << 32 | UInt64(author) }

    static func record(_ n: Int) -> VotingHistory.PairRecord {
        VotingHistory.PairRecord(chances: n, backs: n / 2, expected: Double(n) / 4)
    }

    @Test func everyKeyComesBackWithItsLastRecordThroughGrowth() {
        var table = PairTable()
        var expected: [UInt64: VotingHistory.PairRecord] = [:]
        // Keys that share their low or high halves, and the largest ids there are.
        var keys: [UInt64] = []
        for voter in 0..<60 { for author in 0..<60 { keys.append(Self.key(voter, author)) } }
        keys += [Self.key(Int(Int32.max), Int(Int32.max)), Self.key(0, Int(Int32.max)), Self.key(Int(Int32.max), 0)]
        for (n, key) in keys.enumerated() {
            table[key] = Self.record(n)
            expected[key] = Self.record(n)
        }
        // Written again: the record is replaced, not added.
        for (n, key) in keys.enumerated() where n % 7 == 0 {
            table[key] = Self.record(n + 1000)
            expected[key] = Self.record(n + 1000)
        }
        // Setting nil stores nothing.
        table[Self.key(99, 99)] = nil
        #expect(table.count == keys.count)
        for key in keys { #expect(table[key] == expected[key]) }
        for absent in [Self.key(99, 99), Self.key(60, 0), Self.key(0, 60), Self.key(1, Int(Int32.max))] {
            #expect(table[absent] == nil)
        }
        var visited: [UInt64: VotingHistory.PairRecord] = [:]
        var visits = 0
        table.forEach { key, record in
            visited[key] = record
            visits += 1
        }
        #expect(visits == keys.count)
        #expect(visited == expected)
    }

    @Test func roomReservedAheadHoldsTheSameRecords() {
        var grown = PairTable(), reserved = PairTable(minimumCapacity: 5000)
        reserved.reserveCapacity(6000)
        for n in 0..<5000 {
            grown[Self.key(n % 97, n)] = Self.record(n)
            reserved[Self.key(n % 97, n)] = Self.record(n)
        }
        #expect(grown.count == 5000 && reserved.count == 5000)
        for n in 0..<5000 { #expect(reserved[Self.key(n % 97, n)] == grown[Self.key(n % 97, n)]) }
    }

    /// No seeded hashing: two tables filled alike visit their records in the same order, and
    /// a small table's order is the one it had when this test was written, on every run.
    @Test func theOrderOfAVisitIsTheSameForTheSameInserts() {
        func filled(_ count: Int) -> [UInt64] {
            var table = PairTable()
            for n in 0..<count { table[Self.key(n % 41, n / 41)] = Self.record(n) }
            var order: [UInt64] = []
            table.forEach { key, _ in order.append(key) }
            return order
        }
        #expect(filled(3000) == filled(3000))
        #expect(filled(5).map { "\($0 >> 32).\($0 & 0xFFFF_FFFF)" } == ["0.0", "4.0", "1.0", "3.0", "2.0"])
    }

    /// The key no pair has (both halves all ones) is the table's mark for an empty slot: it is
    /// never found, in an empty table or a full one, and storing it stores nothing.
    @Test func theEmptyMarkIsNeverAKey() {
        var table = PairTable()
        #expect(table[.max] == nil)
        table[.max] = Self.record(1)
        #expect(table[.max] == nil && table.count == 0)
        for n in 0..<100 { table[Self.key(n, n + 1)] = Self.record(n) }
        #expect(table[.max] == nil && table.count == 100)
    }
}
