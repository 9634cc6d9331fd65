#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Names the running prolific for the caches that outlive a process: another binary may read
/// and render differently, so each cache is keyed by it.
///
/// The name is the linker's build ID when the binary has one (`.note.gnu.build-id`, a hash of
/// what was linked): the same code keeps its caches when it is copied, installed again or
/// restored from a CI cache, which all give the file a new inode and time. Without one, the
/// file's inode, size and modification time.
enum RunningBinary {
    static let name: String? = buildID.map { "build-id \($0)" } ?? fileStamp

    private static var fileStamp: String? {
        FileInventory.stamp("/proc/self/exe", following: true).map { "\($0.inode) \($0.size) \($0.modified)" }
    }

    /// The main program's GNU build ID in hexadecimal, read from its notes in memory, where the
    /// auxiliary vector says its program headers are (`getauxval`, which also holds when the
    /// program is started by naming the dynamic loader: `/proc/self/exe` is then the loader).
    static let buildID: String? = {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            // glibc's getauxval, which Swift's Glibc module doesn't declare.
            typealias AuxiliaryValue = @convention(c) (UInt) -> UInt
            guard let symbol = dlsym(nil, "getauxval") else { return nil }
            let auxiliaryValue = unsafeBitCast(symbol, to: AuxiliaryValue.self)
            let address = auxiliaryValue(UInt(AT_PHDR))
            guard let count = Int(exactly: auxiliaryValue(UInt(AT_PHNUM))), count > 0,
                let first = UnsafePointer<Elf64_Phdr>(bitPattern: address)
            else { return nil }
            let headers = UnsafeBufferPointer(start: first, count: count)
            // A position-independent program is loaded at an offset: where its headers are, less
            // where they say they are.
            guard let own = headers.first(where: { $0.p_type == UInt32(PT_PHDR) }) else { return nil }
            let offset = address &- UInt(own.p_vaddr)
            // Only notes inside a loaded segment are in memory.
            let loaded = headers.filter { $0.p_type == UInt32(PT_LOAD) }.map { (start: $0.p_vaddr, end: $0.p_vaddr &+ $0.p_memsz) }
            for segment in headers where segment.p_type == UInt32(PT_NOTE) {
                let end = segment.p_vaddr &+ segment.p_memsz
                guard end >= segment.p_vaddr, loaded.contains(where: { $0.start <= segment.p_vaddr && end <= $0.end }),
                    let size = Int(exactly: segment.p_memsz),
                    let start = UnsafeRawPointer(bitPattern: offset &+ UInt(segment.p_vaddr))
                else { continue }
                if let id = buildID(inNotes: UnsafeRawBufferPointer(start: start, count: size)) { return RoundSeal.hex(id) }
            }
        #endif
        return nil
    }()

    /// The descriptor of the `NT_GNU_BUILD_ID` note among `notes` (each a 4-byte name size,
    /// descriptor size and type, then the name and the descriptor, each padded to 4 bytes).
    static func buildID(inNotes notes: UnsafeRawBufferPointer) -> [UInt8]? {
        var offset = 0
        while offset + 12 <= notes.count {
            let nameSize = Int(notes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let descriptorSize = Int(notes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let type = notes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let name = offset + 12
            let descriptor = name + (nameSize + 3) / 4 * 4
            let end = descriptor + (descriptorSize + 3) / 4 * 4
            guard descriptor + descriptorSize <= notes.count else { return nil }
            if type == 3, nameSize == 4, Array(notes[name..<name + 4]) == Array("GNU\0".utf8), descriptorSize > 0 {
                return Array(notes[descriptor..<descriptor + descriptorSize])
            }
            offset = end
        }
        return nil
    }
}
