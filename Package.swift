// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "prolific",
    // swift-subprocess's floor; Linux is what Prolific is built and tested on.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "prolific", targets: ["prolific"]),
        // `prolific serve` runs it: installed beside prolific.
        .executable(name: "prolific-serve", targets: ["prolific-serve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // EPUB downloads are zip files.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // `prolific serve`: a small HTTP server with no dependencies of its own (SwiftNIO-based
        // servers take minutes longer to build on a fresh clone).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // `prolific-serve` runs each build as `prolific build`, with the signals a child should get
        // (it needs Swift 6.2 or later).
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // SHA-256 digests that make closed rounds tamper-evident.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // libcmark from the system (Debian: libcmark-dev).
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        // The game: model, identifiers and rules. Pure: no file I/O, no clock.
        .target(name: "ProlificCore"),
        // The on-disk format of a content directory: reading, writing, locking.
        .target(
            name: "ProlificStore",
            dependencies: [
                "ProlificCore", .product(name: "Yams", package: "Yams"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Renders a loaded content value into a static site.
        .target(
            name: "ProlificSite",
            dependencies: [
                "ProlificCore", "CCmark",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The command-line interface: parsing arguments, wiring, printing, exit codes.
        .target(
            name: "ProlificCLI",
            dependencies: [
                "ProlificCore", "ProlificStore", "ProlificSite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `prolific serve`'s HTTP server, in a program of its own: FlyingFox brings
        // FoundationNetworking and libcurl, which every other command would load at its start.
        .target(
            name: "ProlificServe",
            dependencies: [
                "ProlificCLI", "ProlificCore", "ProlificStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ]
        ),
        // jemalloc (Debian: libjemalloc-dev) serves the release binary's many small allocations
        // faster than glibc's malloc, with fewer page faults: a tenth off a big build
        // (docs/performance.md). Debug builds, and so the sanitizers, keep the system's.
        .executableTarget(
            name: "prolific", dependencies: ["ProlificCLI"],
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux], configuration: .release))]),
        .executableTarget(
            name: "prolific-serve", dependencies: ["ProlificServe"],
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux], configuration: .release))]),
        // `make fairness`: the tally against simulated attacks, with ground truth.
        .executableTarget(name: "prolific-fairness", dependencies: ["ProlificCore"], path: "Sources/FairnessSimulation"),
        // Synthetic content directories of a given size, for benchmarks.
        .executableTarget(
            name: "prolific-generate", dependencies: ["ProlificCore", "ProlificStore"], path: "Sources/ContentGenerator"),
        .testTarget(name: "ProlificCoreTests", dependencies: ["ProlificCore"]),
        .testTarget(name: "ProlificStoreTests", dependencies: ["ProlificStore"]),
        .testTarget(
            name: "ProlificSiteTests",
            dependencies: ["ProlificSite", "ProlificStore", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        // Yams: the recipe tests read the example GitHub workflows (docs/examples/).
        .testTarget(
            name: "ProlificCLITests",
            dependencies: [
                "prolific", "prolific-serve", "ProlificCLI", "ProlificServe", "ProlificStore",
                .product(name: "Yams", package: "Yams"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// `make fuzz`: the libFuzzer harnesses (docs/reliability.md). Declared only when PROLIFIC_FUZZ=1,
// because they have no `main` of their own: they link only with `-sanitize=fuzzer`, whose libFuzzer
// brings it, so an ordinary `swift build` or `swift test` must never see them.
if Context.environment["PROLIFIC_FUZZ"] == "1" {
    package.targets += [
        .target(name: "FuzzSupport", path: "Sources/Fuzz/FuzzSupport"),
        .executableTarget(
            name: "FuzzContent", dependencies: ["FuzzSupport", "ProlificCore", "ProlificStore"],
            path: "Sources/Fuzz/FuzzContent"),
        .executableTarget(
            name: "FuzzIdentifiers", dependencies: ["FuzzSupport", "ProlificCore", "ProlificStore"],
            path: "Sources/Fuzz/FuzzIdentifiers"),
    ]
}
