import Foundation

/// The script `serve` adds to every HTML page it sends, so a browser reloads after a rebuild.
///
/// It polls rather than holding a socket open: one small same-origin request a second is cheap on
/// loopback, survives the server restarting, and needs nothing but `fetch`. The page is given the
/// token of the build it came from, so a rebuild that lands between loading the page and its first
/// poll still reloads it. Built files never contain it: it is added while sending.
enum LiveReload {
    static func script(token: String) -> String {
        """
        <script>(()=>{const b=\(jsonString(token));const p=()=>fetch("\(RequestPath.buildTokenPath)",\
        {cache:"no-store"}).then(r=>r.text()).then(t=>{if(t!==b)location.reload()},()=>{})\
        .finally(()=>setTimeout(p,1000));setTimeout(p,1000)})()</script>
        """
    }

    /// `html` with the script just before its last `</body>`, or at the end when there is none.
    static func inject(into html: String, token: String) -> String {
        let tag = script(token: token)
        guard let body = html.range(of: "</body>", options: [.caseInsensitive, .backwards]) else {
            return html + tag
        }
        return html.replacingCharacters(in: body.lowerBound..<body.lowerBound, with: tag)
    }

    /// `token` as a JavaScript string literal; the token is ours, but quoting it keeps it inert.
    private static func jsonString(_ token: String) -> String {
        let escaped = token.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\"", "\\", "<", ">", "&": String(format: "\\u%04x", scalar.value)
            case _ where scalar.value < 0x20: String(format: "\\u%04x", scalar.value)
            default: String(scalar)
            }
        }
        return "\"" + escaped.joined() + "\""
    }
}

/// Counts the good builds of this `serve` run; the count is what `/__prolific/build` answers.
///
/// The token starts with a per-run tag so that a page left open across a restart of `serve`
/// reloads too, even though the count starts again from 1.
actor BuildCounter {
    private let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    private(set) var count = 0

    var token: String { "\(run)-\(count)" }

    func advance() { count += 1 }
}
