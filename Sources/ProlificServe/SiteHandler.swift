import FlyingFox
import Foundation

/// Answers every request of `serve`: files of the built site, its 404 page, and the build token.
///
/// Only `GET` and `HEAD`; nothing is cached by the browser (`no-store`), so a reload after a
/// rebuild always shows the new site.
struct SiteHandler: HTTPHandler {
    var folder: SiteFolder
    var builds: BuildCounter

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            return Self.response(
                .methodNotAllowed, text: "Only GET and HEAD.\n", for: request, extra: [.allow: "GET, HEAD"])
        }
        let raw = request.target.path(percentEncoded: true)
        switch RequestPath(raw: raw) {
        case .buildToken:
            return Self.response(.ok, text: await builds.token, for: request)
        case .invalid:
            return Self.response(.badRequest, text: "Bad request path.\n", for: request)
        case .file(let components):
            switch folder.lookup(components) {
            case .file(let path):
                if let data = FileManager.default.contents(atPath: path) {
                    return await page(.ok, data: data, type: ContentType.of(path), for: request)
                }
            case .folder where !raw.hasSuffix("/"):
                return Self.response(.movedPermanently, text: "", for: request, extra: [.location: raw + "/"])
            case .folder, .missing:
                break
            }
            return await notFound(for: request)
        }
    }

    /// The site's own `404.html` with status 404, or a plain line when the site has none yet.
    func notFound(for request: HTTPRequest) async -> HTTPResponse {
        if case .file(let path) = folder.lookup(["404.html"]), let data = FileManager.default.contents(atPath: path) {
            return await page(.notFound, data: data, type: ContentType.html, for: request)
        }
        return Self.response(.notFound, text: "Not found.\n", for: request)
    }

    /// A file's bytes; HTML gets the live-reload script.
    func page(_ status: HTTPStatusCode, data: Data, type: String, for request: HTTPRequest) async -> HTTPResponse {
        var body = data
        if type == ContentType.html {
            body = Data(LiveReload.inject(into: String(decoding: data, as: UTF8.self), token: await builds.token).utf8)
        }
        return Self.response(status, body: body, type: type, for: request)
    }

    static func response(
        _ status: HTTPStatusCode, text: String, for request: HTTPRequest, extra: [HTTPHeader: String] = [:]
    ) -> HTTPResponse {
        response(status, body: Data(text.utf8), type: ContentType.text, for: request, extra: extra)
    }

    /// `HEAD` gets the same headers, with the length of the body it would have had, and no body.
    static func response(
        _ status: HTTPStatusCode, body: Data, type: String, for request: HTTPRequest, extra: [HTTPHeader: String] = [:]
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[.contentLength] = String(body.count)
        for (name, value) in extra { headers[name] = value }
        return HTTPResponse(statusCode: status, headers: headers, body: request.method == .HEAD ? Data() : body)
    }
}

extension HTTPHeader {
    static let allow = HTTPHeader("Allow")
}
