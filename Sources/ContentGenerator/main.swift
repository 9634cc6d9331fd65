import Foundation

/// `prolific-generate SIZE DIR [SEED]`: a synthetic content directory for benchmarks.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let size = Generator.Size.presets[arguments[arguments.startIndex]] else {
    FileHandle.standardError.write(Data("usage: prolific-generate small|medium|large|huge-ballots DIR [SEED]\n".utf8))
    exit(2)
}
let out = arguments[arguments.startIndex + 1]
let seed = arguments.count > 2 ? UInt64(arguments[arguments.startIndex + 2]) ?? 1 : 1
var generator = Generator(size: size, out: out, seed: seed)
do {
    try generator.run()
} catch {
    FileHandle.standardError.write(Data("prolific-generate: \(error)\n".utf8))
    exit(1)
}
