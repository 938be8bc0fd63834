import QuizCore

/// Groups imported questions into subject → topic → one quiz per topic, keeping the order in
/// which subjects, topics and questions first appear.
struct BankBuilder {
    private var subjects: [(name: String, topics: [(name: String, questions: [Question])])] = []
    private var subjectIndex: [String: Int] = [:]
    private var topicIndex: [TopicKey: Int] = [:]
    /// Rows usually come grouped, so the previous row's topic is checked before any hashing.
    private var last: (subject: String, topic: String, subjectIndex: Int, topicIndex: Int)?

    private struct TopicKey: Hashable {
        var subject: String
        var topic: String
    }

    var isEmpty: Bool { subjects.isEmpty }

    mutating func add(_ question: Question, subject: String, topic: String) {
        if let last, last.subject == subject, last.topic == topic {
            subjects[last.subjectIndex].topics[last.topicIndex].questions.append(question)
            return
        }
        let s: Int
        if let known = subjectIndex[subject] {
            s = known
        } else {
            s = subjects.count
            subjects.append((subject, []))
            subjectIndex[subject] = s
        }
        let key = TopicKey(subject: subject, topic: topic)
        let t: Int
        if let known = topicIndex[key] {
            t = known
        } else {
            t = subjects[s].topics.count
            subjects[s].topics.append((topic, []))
            topicIndex[key] = t
        }
        subjects[s].topics[t].questions.append(question)
        last = (subject, topic, s, t)
    }

    func bank(quizTitle: String) -> Bank {
        Bank(subjects: subjects.map { subject in
            BankSubject(name: subject.name, topics: subject.topics.map { topic in
                BankTopic(name: topic.name, quizzes: [BankQuiz(title: quizTitle, questions: topic.questions)])
            })
        })
    }
}
