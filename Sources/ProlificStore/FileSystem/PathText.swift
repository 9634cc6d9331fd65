import Glibc
import ProlificCore

/// A path as a dictionary key: a `String`, hashed (`KeyHash`) and compared by its UTF-8 bytes
/// in place, as the file system compares names.
///
/// The site's 37,000 files are looked up by path twice in a rebuild of the large benchmark
/// (`FileInventory.intactEntries`), and a `String` key is hashed with SipHash. Comparing bytes
/// also keeps apart two names that differ only in Unicode normalization, which are two files
/// but equal `String`s.
struct PathText: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: PathText, b: PathText) -> Bool {
        var (a, b) = (a.text, b.text)
        return a.withUTF8 { a in
            b.withUTF8 { b in
                a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    func _rawHashValue(seed: Int) -> Int {
        var text = text
        return text.withUTF8 { KeyHash.hash($0, seed: seed) }
    }
}
