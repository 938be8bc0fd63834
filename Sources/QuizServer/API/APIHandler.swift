import Foundation
import QuizAPI
import QuizCore
import QuizUseCases

/// The generated `APIProtocol`: each operation forwarded to its feature's handler, inside the group
/// of callers it is open to. One type must conform to the generated protocol; it only forwards, so
/// that each feature's handler (`PlayAPI`, `ManageCatalogAPI`, …) holds just the use cases it
/// calls, as the page controllers do, and can be read and built alone. (Extensions of one conforming
/// type would have given every handler every use case.) Who may call what is written here, once a
/// line, as the pages' route groups are: `signedIn`, `authors`, `admins`, or none for operations
/// open to anyone, which look no session up. It is typed: a handler taking an `AuthorCaller`
/// does not compile in `signedIn`. A class: the generated server copies its handler into every
/// request, and a reference is one retain where this struct's features were one each.
final class APIHandler: APIProtocol, Sendable {
    let signedIn: APIGroup<SignedInCaller>
    let authors: APIGroup<AuthorCaller>
    let admins: APIGroup<AdminCaller>

    let accounts: AccountsAPI
    let catalog: CatalogAPI
    let play: PlayAPI
    let practice: PracticeAPI
    let games: GamesAPI
    let live: LiveAPI
    let assignments: AssignmentsAPI
    let assignmentPlay: AssignmentPlayAPI
    let social: SocialAPI
    let articles: ArticlesAPI
    let banks: BankAPI
    let manageCatalog: ManageCatalogAPI
    let manageQuestions: ManageQuestionsAPI
    let manageUsers: ManageUsersAPI
    let classes: ClassesAPI

    init(useCases: UseCases, config: ServerConfig, time: any TimeSource) {
        signedIn = APIGroup(sessions: useCases.sessions)
        authors = APIGroup(sessions: useCases.sessions)
        admins = APIGroup(sessions: useCases.sessions)
        accounts = AccountsAPI(register: useCases.register, passwordLogIn: useCases.logIn, sessions: useCases.sessions,
                               profile: useCases.profile, config: config)
        catalog = CatalogAPI(browse: useCases.browseCatalog)
        play = PlayAPI(playQuiz: useCases.playQuiz, leaderboard: useCases.leaderboard, time: time)
        practice = PracticeAPI(practice: useCases.practice, singleQuestion: useCases.singleQuestion)
        games = GamesAPI(games: useCases.nameAllGames)
        live = LiveAPI(liveGames: useCases.liveGames)
        assignments = AssignmentsAPI(assignments: useCases.assignments, time: time)
        assignmentPlay = AssignmentPlayAPI(assignments: useCases.assignments, signedIn: signedIn, time: time)
        social = SocialAPI(people: useCases.people, following: useCases.following, postToFeed: useCases.postToFeed,
                           postDeletion: useCases.deletePost, feed: useCases.feed)
        articles = ArticlesAPI(articles: useCases.articles, authoring: useCases.articleAuthoring, importFeed: useCases.importArticleFeed)
        banks = BankAPI(bankImport: useCases.importBank, bankExport: useCases.exportBank)
        manageCatalog = ManageCatalogAPI(catalog: useCases.catalogAuthoring)
        manageQuestions = ManageQuestionsAPI(questions: useCases.questionAuthoring)
        manageUsers = ManageUsersAPI(manageUsers: useCases.manageUsers)
        classes = ClassesAPI(classes: useCases.classes, time: time)
    }

    // MARK: Accounts
    func registerUser(_ input: Operations.RegisterUser.Input) async throws -> Operations.RegisterUser.Output { try await accounts.registerUser(input) }
    func logIn(_ input: Operations.LogIn.Input) async throws -> Operations.LogIn.Output { try await accounts.logIn(input) }
    func logOut(_ input: Operations.LogOut.Input) async throws -> Operations.LogOut.Output {
        try await signedIn { try await accounts.logOut(input, by: $0) }
    }
    func listAuthProviders(_ input: Operations.ListAuthProviders.Input) async throws -> Operations.ListAuthProviders.Output { try await accounts.listAuthProviders(input) }
    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        try await signedIn { try await accounts.getMe(input, by: $0) }
    }

    // MARK: Catalog
    func listSubjects(_ input: Operations.ListSubjects.Input) async throws -> Operations.ListSubjects.Output { try await catalog.listSubjects(input) }
    func listTopics(_ input: Operations.ListTopics.Input) async throws -> Operations.ListTopics.Output { try await catalog.listTopics(input) }
    func listQuizzes(_ input: Operations.ListQuizzes.Input) async throws -> Operations.ListQuizzes.Output { try await catalog.listQuizzes(input) }
    func getQuiz(_ input: Operations.GetQuiz.Input) async throws -> Operations.GetQuiz.Output { try await catalog.getQuiz(input) }
    func listQuizQuestions(_ input: Operations.ListQuizQuestions.Input) async throws -> Operations.ListQuizQuestions.Output { try await catalog.listQuizQuestions(input) }

    // MARK: Playing quizzes, the leaderboard
    func startAttempt(_ input: Operations.StartAttempt.Input) async throws -> Operations.StartAttempt.Output {
        try await signedIn { try await play.startAttempt(input, by: $0) }
    }
    func getAttempt(_ input: Operations.GetAttempt.Input) async throws -> Operations.GetAttempt.Output {
        try await signedIn { try await play.getAttempt(input, by: $0) }
    }
    func getAttemptQuestion(_ input: Operations.GetAttemptQuestion.Input) async throws -> Operations.GetAttemptQuestion.Output {
        try await signedIn { try await play.getAttemptQuestion(input, by: $0) }
    }
    func submitAnswer(_ input: Operations.SubmitAnswer.Input) async throws -> Operations.SubmitAnswer.Output {
        try await signedIn { try await play.submitAnswer(input, by: $0) }
    }
    func finishAttempt(_ input: Operations.FinishAttempt.Input) async throws -> Operations.FinishAttempt.Output {
        try await signedIn { try await play.finishAttempt(input, by: $0) }
    }
    func getLeaderboard(_ input: Operations.GetLeaderboard.Input) async throws -> Operations.GetLeaderboard.Output {
        try await signedIn { try await play.getLeaderboard(input, by: $0) }
    }

    // MARK: Practice, single and random questions
    func getPracticeSettings(_ input: Operations.GetPracticeSettings.Input) async throws -> Operations.GetPracticeSettings.Output {
        try await signedIn { try await practice.getPracticeSettings(input, by: $0) }
    }
    func startPractice(_ input: Operations.StartPractice.Input) async throws -> Operations.StartPractice.Output {
        try await signedIn { try await practice.startPractice(input, by: $0) }
    }
    func forgetSeenQuestions(_ input: Operations.ForgetSeenQuestions.Input) async throws -> Operations.ForgetSeenQuestions.Output {
        try await signedIn { try await practice.forgetSeenQuestions(input, by: $0) }
    }
    func getRandomQuestion(_ input: Operations.GetRandomQuestion.Input) async throws -> Operations.GetRandomQuestion.Output {
        try await signedIn { try await practice.getRandomQuestion(input, by: $0) }
    }
    func getQuestion(_ input: Operations.GetQuestion.Input) async throws -> Operations.GetQuestion.Output {
        try await signedIn { try await practice.getQuestion(input, by: $0) }
    }
    func answerQuestion(_ input: Operations.AnswerQuestion.Input) async throws -> Operations.AnswerQuestion.Output {
        try await signedIn { try await practice.answerQuestion(input, by: $0) }
    }

    // MARK: Name-them-all games
    func listGameQuestions(_ input: Operations.ListGameQuestions.Input) async throws -> Operations.ListGameQuestions.Output { try await games.listGameQuestions(input) }
    func startGame(_ input: Operations.StartGame.Input) async throws -> Operations.StartGame.Output {
        try await signedIn { try await games.startGame(input, by: $0) }
    }
    func getGame(_ input: Operations.GetGame.Input) async throws -> Operations.GetGame.Output {
        try await signedIn { try await games.getGame(input, by: $0) }
    }
    func guess(_ input: Operations.Guess.Input) async throws -> Operations.Guess.Output {
        try await signedIn { try await games.guess(input, by: $0) }
    }
    func giveUp(_ input: Operations.GiveUp.Input) async throws -> Operations.GiveUp.Output {
        try await signedIn { try await games.giveUp(input, by: $0) }
    }

    // MARK: Live games
    func listLiveGames(_ input: Operations.ListLiveGames.Input) async throws -> Operations.ListLiveGames.Output {
        try await signedIn { try await live.listLiveGames(input, by: $0) }
    }
    func createLiveGame(_ input: Operations.CreateLiveGame.Input) async throws -> Operations.CreateLiveGame.Output {
        try await signedIn { try await live.createLiveGame(input, by: $0) }
    }
    func getLiveGame(_ input: Operations.GetLiveGame.Input) async throws -> Operations.GetLiveGame.Output {
        try await signedIn { try await live.getLiveGame(input, by: $0) }
    }
    func getLiveGameResults(_ input: Operations.GetLiveGameResults.Input) async throws -> Operations.GetLiveGameResults.Output {
        try await signedIn { try await live.getLiveGameResults(input, by: $0) }
    }

    // MARK: Assignments: the owner's side signed in; players by the X-Assignment-Player header or their session
    func listAssignments(_ input: Operations.ListAssignments.Input) async throws -> Operations.ListAssignments.Output {
        try await signedIn { try await assignments.listAssignments(input, by: $0) }
    }
    func createAssignment(_ input: Operations.CreateAssignment.Input) async throws -> Operations.CreateAssignment.Output {
        try await signedIn { try await assignments.createAssignment(input, by: $0) }
    }
    func getAssignment(_ input: Operations.GetAssignment.Input) async throws -> Operations.GetAssignment.Output {
        try await signedIn { try await assignments.getAssignment(input, by: $0) }
    }
    func closeAssignment(_ input: Operations.CloseAssignment.Input) async throws -> Operations.CloseAssignment.Output {
        try await signedIn { try await assignments.closeAssignment(input, by: $0) }
    }
    func extendAssignment(_ input: Operations.ExtendAssignment.Input) async throws -> Operations.ExtendAssignment.Output {
        try await signedIn { try await assignments.extendAssignment(input, by: $0) }
    }
    func reopenAssignment(_ input: Operations.ReopenAssignment.Input) async throws -> Operations.ReopenAssignment.Output {
        try await signedIn { try await assignments.reopenAssignment(input, by: $0) }
    }
    func getAssignmentReport(_ input: Operations.GetAssignmentReport.Input) async throws -> Operations.GetAssignmentReport.Output {
        try await signedIn { try await assignments.getAssignmentReport(input, by: $0) }
    }
    func exportAssignmentReport(_ input: Operations.ExportAssignmentReport.Input) async throws -> Operations.ExportAssignmentReport.Output {
        try await signedIn { try await assignments.exportAssignmentReport(input, by: $0) }
    }
    func joinAssignment(_ input: Operations.JoinAssignment.Input) async throws -> Operations.JoinAssignment.Output { try await assignmentPlay.joinAssignment(input) }
    func resumeAssignment(_ input: Operations.ResumeAssignment.Input) async throws -> Operations.ResumeAssignment.Output { try await assignmentPlay.resumeAssignment(input) }
    func rejoinAssignment(_ input: Operations.RejoinAssignment.Input) async throws -> Operations.RejoinAssignment.Output { try await assignmentPlay.rejoinAssignment(input) }
    func getAssignmentStanding(_ input: Operations.GetAssignmentStanding.Input) async throws -> Operations.GetAssignmentStanding.Output {
        try await assignmentPlay.getAssignmentStanding(input)
    }
    func startAssignmentAttempt(_ input: Operations.StartAssignmentAttempt.Input) async throws -> Operations.StartAssignmentAttempt.Output {
        try await assignmentPlay.startAssignmentAttempt(input)
    }
    func getAssignmentQuestion(_ input: Operations.GetAssignmentQuestion.Input) async throws -> Operations.GetAssignmentQuestion.Output {
        try await assignmentPlay.getAssignmentQuestion(input)
    }
    func answerAssignmentQuestion(_ input: Operations.AnswerAssignmentQuestion.Input) async throws -> Operations.AnswerAssignmentQuestion.Output {
        try await assignmentPlay.answerAssignmentQuestion(input)
    }
    func finishAssignmentAttempt(_ input: Operations.FinishAssignmentAttempt.Input) async throws -> Operations.FinishAssignmentAttempt.Output {
        try await assignmentPlay.finishAssignmentAttempt(input)
    }
    func getAssignmentResult(_ input: Operations.GetAssignmentResult.Input) async throws -> Operations.GetAssignmentResult.Output {
        try await assignmentPlay.getAssignmentResult(input)
    }

    // MARK: People, posts, the feed
    func searchUsers(_ input: Operations.SearchUsers.Input) async throws -> Operations.SearchUsers.Output {
        try await signedIn { try await social.searchUsers(input, by: $0) }
    }
    func getUserPage(_ input: Operations.GetUserPage.Input) async throws -> Operations.GetUserPage.Output {
        try await signedIn { try await social.getUserPage(input, by: $0) }
    }
    func followUser(_ input: Operations.FollowUser.Input) async throws -> Operations.FollowUser.Output {
        try await signedIn { try await social.followUser(input, by: $0) }
    }
    func unfollowUser(_ input: Operations.UnfollowUser.Input) async throws -> Operations.UnfollowUser.Output {
        try await signedIn { try await social.unfollowUser(input, by: $0) }
    }
    func createPost(_ input: Operations.CreatePost.Input) async throws -> Operations.CreatePost.Output {
        try await signedIn { try await social.createPost(input, by: $0) }
    }
    func deletePost(_ input: Operations.DeletePost.Input) async throws -> Operations.DeletePost.Output {
        try await signedIn { try await social.deletePost(input, by: $0) }
    }
    func getFeed(_ input: Operations.GetFeed.Input) async throws -> Operations.GetFeed.Output {
        try await signedIn { try await social.getFeed(input, by: $0) }
    }

    // MARK: News articles
    func listArticles(_ input: Operations.ListArticles.Input) async throws -> Operations.ListArticles.Output {
        try await signedIn { try await articles.listArticles(input, by: $0) }
    }
    func getArticle(_ input: Operations.GetArticle.Input) async throws -> Operations.GetArticle.Output {
        try await signedIn { try await articles.getArticle(input, by: $0) }
    }
    func readArticle(_ input: Operations.ReadArticle.Input) async throws -> Operations.ReadArticle.Output {
        try await signedIn { try await articles.readArticle(input, by: $0) }
    }
    func createArticle(_ input: Operations.CreateArticle.Input) async throws -> Operations.CreateArticle.Output {
        try await authors { try await articles.createArticle(input, by: $0) }
    }
    func updateArticle(_ input: Operations.UpdateArticle.Input) async throws -> Operations.UpdateArticle.Output {
        try await authors { try await articles.updateArticle(input, by: $0) }
    }
    func deleteArticle(_ input: Operations.DeleteArticle.Input) async throws -> Operations.DeleteArticle.Output {
        try await authors { try await articles.deleteArticle(input, by: $0) }
    }
    func importArticleFeed(_ input: Operations.ImportArticleFeed.Input) async throws -> Operations.ImportArticleFeed.Output {
        try await admins { try await articles.importArticleFeed(input, by: $0) }
    }

    // MARK: Importing and exporting banks
    func importBank(_ input: Operations.ImportBank.Input) async throws -> Operations.ImportBank.Output {
        try await authors { try await banks.importBank(input, by: $0) }
    }
    func importRemoteBank(_ input: Operations.ImportRemoteBank.Input) async throws -> Operations.ImportRemoteBank.Output {
        try await authors { try await banks.importRemoteBank(input, by: $0) }
    }
    func exportQuiz(_ input: Operations.ExportQuiz.Input) async throws -> Operations.ExportQuiz.Output {
        try await authors { try await banks.exportQuiz(input, by: $0) }
    }
    func exportTopic(_ input: Operations.ExportTopic.Input) async throws -> Operations.ExportTopic.Output {
        try await authors { try await banks.exportTopic(input, by: $0) }
    }

    // MARK: Authoring the catalog
    func getOutline(_ input: Operations.GetOutline.Input) async throws -> Operations.GetOutline.Output {
        try await authors { try await manageCatalog.getOutline(input, by: $0) }
    }
    func createSubject(_ input: Operations.CreateSubject.Input) async throws -> Operations.CreateSubject.Output {
        try await authors { try await manageCatalog.createSubject(input, by: $0) }
    }
    func updateSubject(_ input: Operations.UpdateSubject.Input) async throws -> Operations.UpdateSubject.Output {
        try await authors { try await manageCatalog.updateSubject(input, by: $0) }
    }
    func deleteSubject(_ input: Operations.DeleteSubject.Input) async throws -> Operations.DeleteSubject.Output {
        try await authors { try await manageCatalog.deleteSubject(input, by: $0) }
    }
    func createTopic(_ input: Operations.CreateTopic.Input) async throws -> Operations.CreateTopic.Output {
        try await authors { try await manageCatalog.createTopic(input, by: $0) }
    }
    func updateTopic(_ input: Operations.UpdateTopic.Input) async throws -> Operations.UpdateTopic.Output {
        try await authors { try await manageCatalog.updateTopic(input, by: $0) }
    }
    func deleteTopic(_ input: Operations.DeleteTopic.Input) async throws -> Operations.DeleteTopic.Output {
        try await authors { try await manageCatalog.deleteTopic(input, by: $0) }
    }
    func createQuiz(_ input: Operations.CreateQuiz.Input) async throws -> Operations.CreateQuiz.Output {
        try await authors { try await manageCatalog.createQuiz(input, by: $0) }
    }
    func getManagedQuiz(_ input: Operations.GetManagedQuiz.Input) async throws -> Operations.GetManagedQuiz.Output {
        try await authors { try await manageCatalog.getManagedQuiz(input, by: $0) }
    }
    func updateQuiz(_ input: Operations.UpdateQuiz.Input) async throws -> Operations.UpdateQuiz.Output {
        try await authors { try await manageCatalog.updateQuiz(input, by: $0) }
    }
    func deleteQuiz(_ input: Operations.DeleteQuiz.Input) async throws -> Operations.DeleteQuiz.Output {
        try await authors { try await manageCatalog.deleteQuiz(input, by: $0) }
    }
    func setQuizQuestions(_ input: Operations.SetQuizQuestions.Input) async throws -> Operations.SetQuizQuestions.Output {
        try await authors { try await manageCatalog.setQuizQuestions(input, by: $0) }
    }

    // MARK: Authoring questions
    func listTopicQuestions(_ input: Operations.ListTopicQuestions.Input) async throws -> Operations.ListTopicQuestions.Output {
        try await authors { try await manageQuestions.listTopicQuestions(input, by: $0) }
    }
    func createQuestion(_ input: Operations.CreateQuestion.Input) async throws -> Operations.CreateQuestion.Output {
        try await authors { try await manageQuestions.createQuestion(input, by: $0) }
    }
    func getManagedQuestion(_ input: Operations.GetManagedQuestion.Input) async throws -> Operations.GetManagedQuestion.Output {
        try await authors { try await manageQuestions.getManagedQuestion(input, by: $0) }
    }
    func updateQuestion(_ input: Operations.UpdateQuestion.Input) async throws -> Operations.UpdateQuestion.Output {
        try await authors { try await manageQuestions.updateQuestion(input, by: $0) }
    }
    func deleteQuestion(_ input: Operations.DeleteQuestion.Input) async throws -> Operations.DeleteQuestion.Output {
        try await authors { try await manageQuestions.deleteQuestion(input, by: $0) }
    }

    // MARK: Users and roles
    func listUsers(_ input: Operations.ListUsers.Input) async throws -> Operations.ListUsers.Output {
        try await admins { try await manageUsers.listUsers(input, by: $0) }
    }
    func setUserRole(_ input: Operations.SetUserRole.Input) async throws -> Operations.SetUserRole.Output {
        try await admins { try await manageUsers.setUserRole(input, by: $0) }
    }

    // MARK: Classes
    func listClasses(_ input: Operations.ListClasses.Input) async throws -> Operations.ListClasses.Output {
        try await signedIn { try await classes.listClasses(input, by: $0) }
    }
    func createClass(_ input: Operations.CreateClass.Input) async throws -> Operations.CreateClass.Output {
        try await signedIn { try await classes.createClass(input, by: $0) }
    }
    func joinClass(_ input: Operations.JoinClass.Input) async throws -> Operations.JoinClass.Output {
        try await signedIn { try await classes.joinClass(input, by: $0) }
    }
    func getClass(_ input: Operations.GetClass.Input) async throws -> Operations.GetClass.Output {
        try await signedIn { try await classes.getClass(input, by: $0) }
    }
    func updateClass(_ input: Operations.UpdateClass.Input) async throws -> Operations.UpdateClass.Output {
        try await signedIn { try await classes.updateClass(input, by: $0) }
    }
    func removeClassMember(_ input: Operations.RemoveClassMember.Input) async throws -> Operations.RemoveClassMember.Output {
        try await signedIn { try await classes.removeClassMember(input, by: $0) }
    }
    func getGradebook(_ input: Operations.GetGradebook.Input) async throws -> Operations.GetGradebook.Output {
        try await signedIn { try await classes.getGradebook(input, by: $0) }
    }
    func exportGradebook(_ input: Operations.ExportGradebook.Input) async throws -> Operations.ExportGradebook.Output {
        try await signedIn { try await classes.exportGradebook(input, by: $0) }
    }
    func listDueAssignments(_ input: Operations.ListDueAssignments.Input) async throws -> Operations.ListDueAssignments.Output {
        try await signedIn { try await classes.listDueAssignments(input, by: $0) }
    }
}
