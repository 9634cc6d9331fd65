import Crypto
import ProlificCore

/// What a page's bytes are a function of, in 16 bytes: the theme, the template's name and every
/// value the page gives it. Two pages with the same fingerprint render to the same bytes, so a
/// rebuild keeps the previous site's file for a page whose fingerprint is the one the last build
/// recorded (`PageMemory`) instead of rendering it again.
///
/// The values are hashed with SHA-256 in a self-delimiting encoding: every value carries its
/// type, every string and list its length, every dictionary its entries in key order. A value of
/// a shape pages don't use (anything but strings, numbers, booleans, and lists, optionals and
/// string-keyed dictionaries of those) gives no fingerprint, and the page is always rendered.
///
/// A page kind whose values cost much more than what they are made of can be fingerprinted by
/// its inputs instead (`PageJob.inputs`): its common values and what its own values are a
/// function of. The two kinds of fingerprint are hashed apart (a leading byte), so one can never
/// stand for the other.
struct PageFingerprint {
    private var hasher = SHA256()
    private var buffer: [UInt8] = []

    private enum Domain: UInt8 {
        case values = 0x56, inputs = 0x49
    }

    static func of(template: String, values: [String: Any], theme: [UInt8]) -> [UInt8]? {
        of(.values, template: template, theme: theme, [values])
    }

    /// The fingerprint of a page by its inputs: everything its values are a function of, the
    /// values every page has (`PageInputs.add(_: PageContext)`) among them.
    static func of(template: String, inputs: PageInputs, theme: [UInt8]) -> [UInt8] {
        var fingerprint = PageFingerprint(.inputs, template: template, theme: theme, capacity: inputs.bytes.count + 64)
        fingerprint.buffer += inputs.bytes
        return fingerprint.finish()
    }

    private static func of(_ domain: Domain, template: String, theme: [UInt8], _ parts: [[String: Any]]) -> [UInt8]? {
        var fingerprint = PageFingerprint(domain, template: template, theme: theme, capacity: 1 << 16)
        for part in parts where !fingerprint.dictionary(part) { return nil }
        return fingerprint.finish()
    }

    private init(_ domain: Domain, template: String, theme: [UInt8], capacity: Int) {
        buffer.reserveCapacity(theme.count + capacity)
        buffer += theme
        buffer.append(domain.rawValue)
        string(template)
    }

    private mutating func finish() -> [UInt8] {
        flush()
        return Array(hasher.finalize().prefix(16))
    }

    private mutating func value(_ value: Any) -> Bool {
        let type = Swift.type(of: value)
        if type == String.self, let text = value as? String {
            buffer.append(1)
            string(text)
        } else if type == Int.self, let number = value as? Int {
            buffer.append(2)
            integer(UInt64(bitPattern: Int64(number)))
        } else if type == Bool.self, let flag = value as? Bool {
            buffer.append(flag ? 3 : 4)
        } else if type == Double.self, let number = value as? Double {
            buffer.append(5)
            integer(number.bitPattern)
        } else if type == [String: Any].self, let entries = value as? [String: Any] {
            return dictionary(entries)
        } else if type == [String: String].self, let entries = value as? [String: String] {
            buffer.append(7)
            integer(UInt64(entries.count))
            for (key, text) in entries.sorted(by: { $0.key < $1.key }) {
                string(key)
                string(text)
            }
        } else if type == [[String: Any]].self, let items = value as? [[String: Any]] {
            buffer.append(8)
            integer(UInt64(items.count))
            for item in items where !dictionary(item) { return false }
        } else if let optional = value as? any TemplateOptional {
            guard let wrapped = optional.templateWrapped else {
                buffer.append(9)
                return true
            }
            buffer.append(10)
            return self.value(wrapped)
        } else if let list = value as? any TemplateList, !(list is any SetAlgebra) {
            // A set has no fixed order: it falls through to no fingerprint.
            let items = list.templateElements
            buffer.append(11)
            integer(UInt64(items.count))
            for item in items where !self.value(item) { return false }
        } else if let entries = value as? any TemplateKeyed {
            let keys = entries.templateKeys.sorted()
            buffer.append(12)
            integer(UInt64(keys.count))
            for key in keys {
                string(key)
                guard let member = entries.templateMember(key), self.value(member) else { return false }
            }
        } else {
            return false
        }
        return true
    }

    private mutating func dictionary(_ entries: [String: Any]) -> Bool {
        buffer.append(6)
        integer(UInt64(entries.count))
        // Sorted as pairs: looking each key up again would hash it.
        for (key, member) in entries.sorted(by: { $0.key < $1.key }) {
            string(key)
            guard value(member) else { return false }
        }
        return true
    }

    private mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            integer(UInt64(bytes.count))
            if bytes.count > 4096 {
                flush()
                hasher.update(bufferPointer: UnsafeRawBufferPointer(bytes))
            } else {
                buffer.append(contentsOf: bytes)
            }
        }
        if buffer.count > 1 << 15 { flush() }
    }

    private mutating func integer(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    }

    private mutating func flush() {
        buffer.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A string-keyed dictionary of any value type, with its keys (for `PageFingerprint`).
protocol TemplateKeyed: TemplateDictionary {
    var templateKeys: [String] { get }
}

extension Dictionary: TemplateKeyed where Key == String {
    var templateKeys: [String] { Array(keys) }
}
