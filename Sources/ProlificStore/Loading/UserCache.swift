import ProlificCore

/// Every profile as the last build read it, in `.prolific/users.cache` inside the content
/// directory, each under its file's metadata as the build's inventory recorded it (kind, inode,
/// size and times): a build reads again only the profiles whose file changed. Reading and
/// parsing all 5,000 profiles of the large benchmark was about 3.5 % of a rebuild after a
/// ballot.
///
/// Like the other caches it is only speed, keyed by the running binary and the content
/// directory (resolved): a missing, torn or foreign file is a miss, a profile whose file is
/// racy (changed less than two seconds before the inventory) is read, and a linked
/// `.prolific/` is not used. It is written only when a build read every profile without a
/// problem and read at least one of them from its file.
struct UserCache {
    static let magic: Int64 = 0x5052_4F4C_5553_5201  // "PROLUSR" v1
    static let file = ".prolific/users.cache"

    let layout: ContentLayout
    let binary: String
    let root: String
    /// Each profile file's metadata as the inventory recorded it, by file name; a racy one has
    /// none.
    let stamps: [String: [Int64]]

    /// A profile kept, with the metadata of the file it was read from.
    struct Kept {
        var stamp: [Int64]
        var user: User
    }

    /// The cache for the profiles `inventory` (of the whole content directory, taken before
    /// reading) saw; nil where there can be none.
    init?(layout: ContentLayout, inventory: FileInventory) {
        guard let binary = BuildStamp.runningBinary else { return nil }
        self.init(layout: layout, inventory: inventory, binary: binary)
    }

    /// The same, for a given binary identity (tests).
    init?(layout: ContentLayout, inventory: FileInventory, binary: String) {
        guard inventory.root == layout.root, HistoryCache.isUsable(layout), let stamps = inventory.fileStamps(in: "users") else {
            return nil
        }
        (self.layout, self.binary, self.root, self.stamps) = (layout, binary, layout.resolvedRoot, stamps)
    }

    func path() -> String { "\(layout.root)/\(Self.file)" }

    /// The profiles the file holds whose file is the one the inventory recorded, by file name.
    func load() -> [String: User] {
        load(from: Self.entries(layout, binary: binary))
    }

    /// The profiles of `entries` (`entries(_:binary:)`) whose file is the one the inventory
    /// recorded, by file name.
    func load(from entries: [String: Kept]?) -> [String: User] {
        guard let entries else { return [:] }
        var users: [String: User] = [:]
        users.reserveCapacity(entries.count)
        for (name, kept) in entries where stamps[name] == kept.stamp { users[name] = kept.user }
        return users
    }

    /// Every profile the file in `layout`'s content directory holds for the running binary, with
    /// the metadata of the file it was read from, by file name (one whose handle isn't its
    /// file's name is left out); nil without one. It needs no
    /// inventory: a build reads it while the inventory is taken, and keeps the profiles the
    /// inventory then finds unchanged (`load(from:)`); read after, it kept one core busy alone.
    static func entries(_ layout: ContentLayout) -> [String: Kept]? {
        guard let binary = BuildStamp.runningBinary, HistoryCache.isUsable(layout) else { return nil }
        return entries(layout, binary: binary)
    }

    /// The same, for a given binary identity.
    static func entries(_ layout: ContentLayout, binary: String) -> [String: Kept]? {
        let path = "\(layout.root)/\(Self.file)"
        guard let bytes = try? FileSystem.readBytes(path, limit: 1 << 30), let body = CacheSeal.body(of: bytes) else { return nil }
        var r = BinaryReader(bytes, range: body)
        guard r.integer() == Self.magic, r.text() == binary, r.text() == layout.resolvedRoot, let table = PositionsTable.read(from: &r),
            let count = r.shortCount(minimumSize: 8)
        else { return nil }
        var entries: [String: Kept] = [:]
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let name = r.text(), let stampCount = r.shortCount(), stampCount == 5 else { return nil }
            var stamp: [Int64] = []
            for _ in 0..<stampCount {
                guard let value = r.signed() else { return nil }
                stamp.append(value)
            }
            guard let user = Self.decodeUser(&r, table, layout: layout) else { return nil }
            if user.handle.rawValue + ".md" == name { entries[name] = Kept(stamp: stamp, user: user) }
        }
        return r.isAtEnd ? entries : nil
    }

    /// Keeps `users`, each read from the profile file named `name` with the metadata the
    /// inventory recorded (a racy one is left out; with none left, nothing is written). A
    /// failure to write only costs speed.
    func save(_ users: [(name: String, user: User)]) {
        var rest = BinaryWriter(capacity: 256 * users.count)
        var table = PositionsTable()
        var count = 0
        for (name, user) in users {
            guard let stamp = stamps[name] else { continue }
            rest.text(name)
            rest.varint(UInt64(stamp.count))
            for value in stamp { rest.signed(value) }
            Self.encode(user, &rest, &table, layout: layout)
            count += 1
        }
        // Nothing to vouch for (every profile racy, as right after they are written): no file.
        guard count > 0 else { return }
        var w = BinaryWriter(capacity: rest.bytes.count + 4096)
        w.integer(Self.magic)
        w.text(binary)
        w.text(root)
        table.write(into: &w)
        w.varint(UInt64(count))
        w.raw(rest.bytes)
        CacheSeal.seal(&w)
        try? FileSystem.makeDirectories(FileSystem.parentPath(path()))
        try? AtomicFile.write(bytes: w.bytes, to: path(), durable: false)
    }

    // MARK: A profile's bytes

    static func encode(_ user: User, _ w: inout BinaryWriter, _ table: inout PositionsTable, layout: ContentLayout) {
        w.text(user.handle.rawValue)
        w.text(user.name)
        w.signed(user.joined.secondsSinceEpoch)
        w.varint(UInt64(user.follows.projects.count))
        for slug in user.follows.projects { w.text(slug.rawValue) }
        w.varint(UInt64(user.follows.users.count))
        for handle in user.follows.users { w.text(handle.rawValue) }
        w.optional(user.avatar) { $0.text($1) }
        w.varint(UInt64(user.links.count))
        for link in user.links {
            w.text(link.title)
            w.text(link.url)
        }
        w.varint(UInt64(user.emails.count))
        for email in user.emails { w.text(email) }
        w.optional(user.forge) { $0.text($1) }
        w.text(user.bio)
        let isExpected = user.origin.path == layout.userFile(user.handle)
        w.flag(!isExpected)
        if !isExpected { w.text(user.origin.path) }
        w.varint(UInt64(table.number(of: user.origin.positions)))
    }

    static func decodeUser(_ r: inout BinaryReader, _ table: PositionsTable.Read, layout: ContentLayout) -> User? {
        guard let handle = r.text().flatMap(Handle.init), let name = r.text(), let joined = r.time(),
            let projectCount = r.shortCount()
        else { return nil }
        var projects: [Slug] = []
        for _ in 0..<projectCount {
            guard let slug = r.text().flatMap(Slug.init) else { return nil }
            projects.append(slug)
        }
        guard let userCount = r.shortCount() else { return nil }
        var followed: [Handle] = []
        for _ in 0..<userCount {
            guard let handle = r.text().flatMap(Handle.init) else { return nil }
            followed.append(handle)
        }
        guard let avatar = r.optional({ $0.text() }), let linkCount = r.shortCount(minimumSize: 2) else { return nil }
        var links: [User.Link] = []
        for _ in 0..<linkCount {
            guard let title = r.text(), let url = r.text() else { return nil }
            links.append(User.Link(title: title, url: url))
        }
        guard let emailCount = r.shortCount() else { return nil }
        var emails: [String] = []
        for _ in 0..<emailCount {
            guard let email = r.text() else { return nil }
            emails.append(email)
        }
        guard let forge = r.optional({ $0.text() }), let bio = r.text(), let explicit = r.flag() else { return nil }
        var path = layout.userFile(handle)
        if explicit {
            guard let given = r.text() else { return nil }
            path = given
        }
        guard let number = r.varint(), number < table.sets.count else { return nil }
        return User(
            handle: handle, name: name, joined: joined, follows: User.Follows(projects: projects, users: followed), avatar: avatar,
            links: links, emails: emails, forge: forge, bio: bio, origin: Origin(path: path, positions: table.sets[Int(number)]))
    }
}
