import Foundation
import ProlificCore
import Testing

@testable import ProlificStore

/// A build takes each profile whose file is as the last build read it from
/// `.prolific/users.cache`; what it gets must always be what reading the files gives.
@Suite struct UserCacheTests {
    @Test func unchangedProfilesComeFromTheCacheAndChangedOnesFromTheirFiles() throws {
        let world = try Playground()
        _ = try world.standardSetup()
        let layout = ContentLayout(root: world.root)
        let cache = try #require(ProjectCache(layout: layout, inventory: nil, binary: "1 2 3"))
        let (first, problems, _) = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        #expect(problems.isEmpty)
        let content = try #require(first)
        #expect(FileManager.default.fileExists(atPath: "\(world.root)/\(UserCache.file)"))
        #expect(world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max).0 == content)

        // Proof that the cache answers: a profile kept under its file's metadata is what a load gives.
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
        let users = try #require(UserCache(layout: layout, inventory: inventory, binary: "1 2 3"))
        let bob = Make.handle("bob")
        var marked = try #require(content.users[bob])
        marked.name = "Kept"
        let all = content.users.values.sorted { $0.handle < $1.handle }
        users.save(all.map { ("\($0.handle).md", $0.handle == bob ? marked : $0) })
        #expect(users.load()["bob.md"]?.name == "Kept")
        #expect(users.load().count == 3)

        // Another binary's file is not taken.
        let other = try #require(UserCache(layout: layout, inventory: inventory, binary: "1 2 4"))
        #expect(other.load().isEmpty)

        // An edited profile is read again, the others still come from the file. The file's
        // entries, read before the profile changed (as a build reads them while the inventory
        // is taken), are kept by the inventory taken after: without bob's.
        let early = try #require(UserCache.entries(layout, binary: "1 2 3"))
        #expect(early.count == 3 && early["bob.md"]?.user.name == "Kept")
        #expect(UserCache.entries(layout, binary: "1 2 4") == nil)
        let profile = layout.userFile(bob)
        try (String(contentsOfFile: profile, encoding: .utf8) + "More.\n").write(toFile: profile, atomically: true, encoding: .utf8)
        let after = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
        let kept = try #require(UserCache(layout: layout, inventory: after, binary: "1 2 3")).load()
        #expect(kept["bob.md"] == nil)
        #expect(kept.count == 2)
        let keptOfEarly = try #require(UserCache(layout: layout, inventory: after, binary: "1 2 3")).load(from: early)
        #expect(keptOfEarly == kept)
        // A racy profile is never taken.
        let racy = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: 0))
        #expect(try #require(UserCache(layout: layout, inventory: racy, binary: "1 2 3")).load().isEmpty)
        // A torn file is a miss.
        let path = "\(world.root)/\(UserCache.file)"
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        try good.prefix(good.count - 3).write(to: URL(fileURLWithPath: path))
        #expect(users.load().isEmpty)
    }

    /// A build reads the profiles' cache while it reads the projects, and takes from it each
    /// profile whose file is as recorded: a profile kept under a marked name comes back with it.
    /// One kept under another file's name is not taken.
    @Test func aBuildTakesProfilesFromTheCacheItReadsBesideTheProjects() throws {
        let world = try Playground()
        _ = try world.standardSetup()
        let layout = ContentLayout(root: world.root)
        let binary = try #require(BuildStamp.runningBinary)
        let cache = try #require(ProjectCache(layout: layout, inventory: nil, binary: binary))
        let content = try #require(world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max).0)
        let inventory = try #require(FileInventory.take(of: world.root, skipping: [".prolific", ".git"], racyAfter: .max))
        let users = try #require(UserCache(layout: layout, inventory: inventory, binary: binary))
        let (bob, ann) = (Make.handle("bob"), Make.handle("ann"))
        var marked = try #require(content.users[bob])
        marked.name = "Kept"
        var misnamed = try #require(content.users[bob])
        misnamed.name = "Misnamed"
        let all = content.users.values.sorted { $0.handle < $1.handle }
        users.save(all.map { ("\($0.handle).md", $0.handle == bob ? marked : $0.handle == ann ? misnamed : $0) })
        #expect(try #require(UserCache.entries(layout)).keys.sorted() == ["bob.md", "cat.md"], "ann.md holds bob's profile")
        let loaded = try #require(world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max).0)
        #expect(loaded.users[bob]?.name == "Kept")
        #expect(loaded.users[ann] == content.users[ann], "a profile kept under another file's name is read from its file")
    }

    @Test func aLoadGivesWhatTheFilesGive() throws {
        let world = try Playground()
        _ = try world.standardSetup()
        let layout = ContentLayout(root: world.root)
        let cache = try #require(ProjectCache(layout: layout, inventory: nil, binary: "1 2 3"))
        _ = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        _ = try world.game("2026-11-02T00:00:00Z").follow(.user(Make.handle("bob")), by: Make.handle("ann"))
        let (loaded, _, _) = world.reader.loadAllTakingInventory(cache: cache, racyAfter: .max)
        #expect(loaded == world.reader.loadAll().0)
        #expect(loaded?.users[Make.handle("ann")]?.follows.users == [Make.handle("bob")])
    }
}
