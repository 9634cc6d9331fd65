import Foundation
import ProlificCore
import ProlificStore
@testable import ProlificSite

enum SiteFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let repository = root.deletingLastPathComponent().deletingLastPathComponent()
    static var recording: Bool { ProcessInfo.processInfo.environment["PROLIFIC_RECORD"] == "1" }

    /// Loads a content directory that must be free of errors.
    static func load(_ path: String) throws -> Content {
        let (content, problems) = ContentReader(layout: ContentLayout(root: path)).loadAll()
        let errors = problems.filter { $0.severity == .error }
        guard let content, errors.isEmpty else { throw Diagnostics(errors) }
        return content
    }

    static func build(_ content: Content, now: Timestamp) throws -> [String: String] {
        let files = try SiteBuilder(content: content, theme: try Theme.builtIn(), now: now).build()
        return Dictionary(uniqueKeysWithValues: files.map { ($0.path, String(decoding: $0.contents, as: UTF8.self)) })
    }
}

extension PageMemory {
    /// What `files` record for the next build, as `build` records it (`record(_:into:)`): each
    /// file's fingerprint by its path, and what they carry besides (`OutputFile.alsoRecorded`).
    static func recorded(by files: some Sequence<OutputFile>) -> [String: [UInt8]] {
        var fingerprints = PageFingerprints.Recorder()
        for file in files { record(file, into: &fingerprints) }
        return fingerprints.finished().dictionary
    }

    /// A memory of `fingerprints`, given as a dictionary.
    init(
        fingerprints: [String: [UInt8]], isIntact: @escaping @Sendable (String) -> Bool,
        contents: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }
    ) {
        self.init(fingerprints: PageFingerprints(fingerprints), isIntact: isIntact, contents: contents)
    }
}
