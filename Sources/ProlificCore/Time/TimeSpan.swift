/// A length of time as written in content files: `90m`, `36h`, `7d`, `2w`, or a sum like `1d12h`.
public struct TimeSpan: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let seconds: Int64

    /// The longest span accepted: about ten years, far beyond any sensible round.
    public static let maximumSeconds: Int64 = 3650 * 86_400

    public init?(seconds: Int64) {
        guard seconds > 0, seconds <= Self.maximumSeconds else { return nil }
        self.seconds = seconds
    }

    /// Parses one or more `<number><unit>` parts, units `m`, `h`, `d`, `w`; the total must be positive.
    public init?(_ text: some StringProtocol) {
        var total: Int64 = 0
        var number: Int64? = nil
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let next = (number ?? 0) * 10 + Int64(byte - 48)
                guard next <= Self.maximumSeconds else { return nil }
                number = next
            case UInt8(ascii: "m"), UInt8(ascii: "h"), UInt8(ascii: "d"), UInt8(ascii: "w"):
                guard let n = number else { return nil }
                let unit: Int64 =
                    switch byte {
                    case UInt8(ascii: "m"): 60
                    case UInt8(ascii: "h"): 3600
                    case UInt8(ascii: "d"): 86_400
                    default: 604_800
                    }
                total += n * unit
                guard total <= Self.maximumSeconds else { return nil }
                number = nil
            default:
                return nil
            }
        }
        guard number == nil else { return nil }
        self.init(seconds: total)
    }

    /// The canonical spelling in days, hours and minutes: `7d`, `36h` is `1d12h`, `90m` is `1h30m`.
    public var description: String {
        var rest = seconds
        var parts = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] {
            if rest >= size {
                parts += "\(rest / size)\(unit)"
                rest %= size
            }
        }
        return parts.isEmpty ? "0m" : parts
    }

    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.seconds < b.seconds }

    public static let rule = "a length like 90m, 36h, 7d or 2w"
}
