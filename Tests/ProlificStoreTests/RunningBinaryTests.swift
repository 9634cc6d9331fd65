import Foundation
import Testing

@testable import ProlificStore

@Suite struct RunningBinaryTests {
    /// One ELF note: name size, descriptor size, type, then the name and descriptor padded to 4.
    func note(name: String, type: UInt32, descriptor: [UInt8]) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + Array(repeating: 0, count: (4 - bytes.count % 4) % 4) }
        let nameBytes = Array(name.utf8) + [0]
        return word(nameBytes.count) + word(descriptor.count) + withUnsafeBytes(of: type.littleEndian, Array.init)
            + padded(nameBytes) + padded(descriptor)
    }

    @Test func findsTheGNUBuildIDAmongOtherNotes() {
        let id: [UInt8] = Array(0..<20)
        let notes =
            note(name: "GNU", type: 1, descriptor: [0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])  // ABI tag
            + note(name: "Go", type: 3, descriptor: [9, 9, 9])  // another owner's type 3
            + note(name: "GNU", type: 3, descriptor: id)
        #expect(notes.withUnsafeBytes { RunningBinary.buildID(inNotes: $0) } == id)
    }

    @Test func aNoteCutShortOrMissingIsNoID() {
        let whole = note(name: "GNU", type: 3, descriptor: Array(0..<20))
        #expect(whole.dropLast(4).withUnsafeBytes { RunningBinary.buildID(inNotes: $0) } == nil)
        #expect(note(name: "GNU", type: 1, descriptor: [1, 2, 3, 4]).withUnsafeBytes { RunningBinary.buildID(inNotes: $0) } == nil)
        #expect([UInt8]().withUnsafeBytes { RunningBinary.buildID(inNotes: $0) } == nil)
    }

    /// Swift's toolchain on Linux links with a build ID: the caches are keyed by it, the same
    /// for every copy of the binary.
    @Test func theRunningBinaryIsNamedByItsBuildID() throws {
        #if os(Linux)
            let name = try #require(RunningBinary.name)
            #expect(name.hasPrefix("build-id "))
            let hex = name.dropFirst("build-id ".count)
            #expect(hex.count >= 16 && hex.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            // The one readelf prints for the file.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["readelf", "-n", "/proc/\(getpid())/exe"]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return }
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationStatus == 0 {
                #expect(output.contains("Build ID: \(hex)"))
            }
        #endif
    }
}
