import Foundation

/// Assignments: a quiz as homework with a deadline. An owner sets them and reads the report
/// (signed in); a player joins with the code and plays through ``AssignmentPlayer``, which carries
/// the secret joining gave (or, for a player who joined signed in, nothing: the session is sent).
extension QuizboxClient {
    public typealias Assignment = Components.Schemas.Assignment
    public typealias NewAssignment = Components.Schemas.NewAssignment
    public typealias AssignmentProgress = Components.Schemas.AssignmentProgress
    public typealias AssignmentReport = Components.Schemas.AssignmentReport
    public typealias AssignmentJoined = Components.Schemas.AssignmentJoined
    public typealias AssignmentStanding = Components.Schemas.AssignmentStanding
    public typealias AssignmentAttemptInfo = Components.Schemas.AssignmentAttemptInfo
    public typealias AssignmentNext = Components.Schemas.AssignmentNext
    public typealias AssignmentAnswered = Components.Schemas.AssignmentAnswered
    public typealias AssignmentResult = Components.Schemas.AssignmentResult

    /// Who plays: an assignment and the `X-Assignment-Player` value joining gave, or none for a
    /// player who joined signed in (the client's session then says who they are).
    public struct AssignmentPlayer: Sendable, Hashable {
        public var assignmentId: Int64
        public var header: String?

        public init(assignmentId: Int64, header: String?) {
            (self.assignmentId, self.header) = (assignmentId, header)
        }

        /// The player a join, resume or rejoin answered with (signed in, the session is sent too).
        public init(_ joined: AssignmentJoined) {
            self.init(assignmentId: joined.assignment.id, header: joined.playerHeader)
        }
    }

    // MARK: The owner's side

    public func createAssignment(_ assignment: NewAssignment) async throws(Error) -> Assignment {
        try await perform {
            switch try await client.createAssignment(body: .json(assignment)) {
            case .created(let created): return try created.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Your assignments, newest first.
    public func assignments() async throws(Error) -> [Assignment] {
        try await perform {
            switch try await client.listAssignments() {
            case .ok(let ok): return try ok.body.json.assignments
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// One of your assignments and where each player is.
    public func assignment(id: Int64) async throws(Error) -> AssignmentProgress {
        try await perform {
            switch try await client.getAssignment(path: .init(assignmentId: id)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func closeAssignment(id: Int64) async throws(Error) -> Assignment {
        try await perform {
            switch try await client.closeAssignment(path: .init(assignmentId: id)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Moves the close later; a closed assignment opens again until then.
    public func extendAssignment(id: Int64, closesAt: Date) async throws(Error) -> Assignment {
        try await perform {
            switch try await client.extendAssignment(path: .init(assignmentId: id), body: .json(.init(closesAt: closesAt))) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func assignmentReport(id: Int64) async throws(Error) -> AssignmentReport {
        try await perform {
            switch try await client.getAssignmentReport(path: .init(assignmentId: id)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    // MARK: Players

    /// Joins by the 6-digit code: signed in under the username, otherwise under `nickname`.
    /// Keep the answer's `playerId` and `secret` to resume; show `rejoinCode` for another device.
    public func joinAssignment(code: String, nickname: String) async throws(Error) -> AssignmentJoined {
        try await perform {
            switch try await client.joinAssignment(body: .json(.init(code: code, nickname: nickname))) {
            case .created(let created): return try created.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func resumeAssignment(playerId: Int64, secret: String) async throws(Error) -> AssignmentJoined {
        try await perform {
            switch try await client.resumeAssignment(body: .json(.init(playerId: playerId, secret: secret))) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// On another device: a new secret, and the old one stops working.
    public func rejoinAssignment(code: String, nickname: String, rejoinCode: String) async throws(Error) -> AssignmentJoined {
        try await perform {
            switch try await client.rejoinAssignment(body: .json(.init(code: code, nickname: nickname, rejoinCode: rejoinCode))) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func standing(_ player: AssignmentPlayer) async throws(Error) -> AssignmentStanding {
        try await perform {
            switch try await client.getAssignmentStanding(path: .init(assignmentId: player.assignmentId),
                                                          headers: .init(xAssignmentPlayer: player.header)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Starts an attempt, or gives back the one being played.
    public func startAttempt(_ player: AssignmentPlayer) async throws(Error) -> AssignmentAttemptInfo {
        try await perform {
            switch try await client.startAssignmentAttempt(path: .init(assignmentId: player.assignmentId),
                                                           headers: .init(xAssignmentPlayer: player.header)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// The next question (its clock starts when first fetched), or `done`.
    public func nextQuestion(_ player: AssignmentPlayer) async throws(Error) -> AssignmentNext {
        try await perform {
            switch try await client.getAssignmentQuestion(path: .init(assignmentId: player.assignmentId),
                                                          headers: .init(xAssignmentPlayer: player.header)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// Answers the question shown at `position` (from 1); `feedback` when the settings show it.
    public func answer(_ player: AssignmentPlayer, position: Int, with answer: Answer) async throws(Error) -> AssignmentAnswered {
        try await perform {
            switch try await client.answerAssignmentQuestion(path: .init(assignmentId: player.assignmentId),
                                                             headers: .init(xAssignmentPlayer: player.header),
                                                             body: .json(.init(position: position, answer: .init(answer)))) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    public func finish(_ player: AssignmentPlayer) async throws(Error) -> AssignmentResult {
        try await perform {
            switch try await client.finishAssignmentAttempt(path: .init(assignmentId: player.assignmentId),
                                                            headers: .init(xAssignmentPlayer: player.header)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }

    /// The player's own result: the last attempt over, or attempt `number`.
    public func result(_ player: AssignmentPlayer, attempt number: Int? = nil) async throws(Error) -> AssignmentResult {
        try await perform {
            switch try await client.getAssignmentResult(path: .init(assignmentId: player.assignmentId),
                                                        query: .init(attempt: number), headers: .init(xAssignmentPlayer: player.header)) {
            case .ok(let ok): return try ok.body.json
            case .default(let status, let response): throw Self.error(status, response)
            }
        }
    }
}
