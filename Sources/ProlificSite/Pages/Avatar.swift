import ProlificCore

/// A player's picture: their image when it sits beside the profile (and so is copied into the
/// site), otherwise their initials on a colour drawn from their handle. Avatars given as URLs on
/// other hosts are not shown: the site never makes a request to another host.
enum Avatar {
    static func values(of user: User, site: SiteModel) -> [String: Any] {
        let image = localImage(of: user, media: site.content.media)
        return [
            "hasImage": image != nil,
            "url": image ?? "",
            "initials": initials(user.name.isEmpty ? user.handle.rawValue : user.name),
            "hue": Int(NeutralOrder.fnv1a(user.handle.rawValue) % 360),
        ]
    }

    /// `ann.jpg` beside `users/ann.md` → `users/ann.jpg`, when that file exists.
    static func localImage(of user: User, media: Set<String>) -> String? {
        guard let avatar = user.avatar, !avatar.contains("/"), !avatar.contains(":") else { return nil }
        let path = "users/\(avatar)"
        return media.contains(path) ? path : nil
    }

    /// `Ann Ngata` → `AN`; `bram` → `B`.
    static func initials(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "." }).filter { !$0.isEmpty }
        return String(words.prefix(2).compactMap(\.first)).uppercased()
    }
}
