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

    /// The four digits, spelt without formatting the number and padding it: a rebuild spells
    /// the folder of each of the kept projects' 20,000 rounds on large (`ProjectCodec`).
    public var folderName: String {
        let digits = (value / 1000 % 10, value / 100 % 10, value / 10 % 10, value % 10)
        return String(unsafeUninitializedCapacity: 4) { buffer in
            (buffer[0], buffer[1], buffer[2], buffer[3]) = (
                UInt8(48 + digits.0), UInt8(48 + digits.1), UInt8(48 + digits.2), UInt8(48 + digits.3)
            )
            return 4
        }
    }

    public var description: String { String(value) }
    public static func < (a: RoundNumber, b: RoundNumber) -> Bool { a.value < b.value }
}
