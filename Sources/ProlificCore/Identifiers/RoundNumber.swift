/// A round's number within its project, from 1; its folder is the number in four digits (`0001`).
public struct RoundNumber: Hashable, Comparable, Sendable, CustomStringConvertible {
    public static let maximum = 9999
    public let value: Int

    public init?(_ value: Int) {
        guard (1...Self.maximum).contains(value) else { return nil }
        self.value = value
    }

    /// Parses a round folder name: exactly four digits, not `0000`.
    public init?(folderName: some StringProtocol) {
        guard folderName.utf8.count == 4, folderName.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let number = Int(folderName)
        else { return nil }
        self.init(number)
    }

    public static let first = RoundNumber(1)!

    /// The following round, or nil past the maximum.
    public var next: RoundNumber? { RoundNumber(value + 1) }

    public var folderName: String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    public var description: String { String(value) }
    public static func < (a: RoundNumber, b: RoundNumber) -> Bool { a.value < b.value }
}
