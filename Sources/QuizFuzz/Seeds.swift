import Foundation
import QuizCore
import QuizFormats

/// Small inputs written for the fuzzer, one or two per construct of each format, and the tokens
/// the mutator puts where they do not belong. The writers' output of a bank with every kind of
/// question seeds the formats Quizbox writes.
enum Seeds {
    static let bank = Bank(subjects: [BankSubject(name: "Science", topics: [
        BankTopic(name: "Space", quizzes: [BankQuiz(title: "Planets & {stars}", questions: [
            Question(text: "Largest \"planet\" ~ = # {x}: <b>which</b>?", explanation: "It is 11 Earths wide.", difficulty: .easy,
                     body: .singleChoice([Choice(id: 1, text: "Jupiter", isCorrect: true), Choice(id: 2, text: "Mars", isCorrect: false),
                                          Choice(id: 3, text: "C#", isCorrect: false)])),
            Question(text: "Gas giants?", points: 3, body: .multipleChoice([
                Choice(id: 1, text: "Saturn", isCorrect: true), Choice(id: 2, text: "Venus", isCorrect: false),
                Choice(id: 3, text: "Neptune", isCorrect: true)])),
            Question(text: "The Sun is a star.", body: .trueFalse(true)),
            Question(text: "Name the red planet", body: .typedAnswer(["Mars", "the red planet"])),
            Question(text: "Light-minutes from the Sun to Earth?", body: .numeric(value: 8.3, tolerance: 0.2, unit: "min")),
            Question(text: "Name the inner planets", body: .nameAll(items: [NameAllItem(answer: "Mercury"),
                NameAllItem(answer: "Earth", alternates: ["Terra"])], timeLimitSeconds: 60, typoTolerance: true)),
            Question(text: "Match the moons", body: .matching(Matching(pairs: [
                Matching.Pair(prompt: "Io", answer: "Jupiter"), Matching.Pair(prompt: "Titan", answer: "Saturn"),
                Matching.Pair(prompt: "Europa", answer: "Jupiter")], extras: ["Mars"]))),
            Question(text: "Order from the Sun", body: .ordering(Ordering(items: ["Mercury", "Venus", "Earth"]))),
            Question(text: "Fill the gaps", body: .gapFill(GapFill(text: "[[1]] is the {largest} planet, [[2]] km wide ([[3]]).", gaps: [
                GapFill.WeightedGap(.choice([Alternative("Jupiter"), Alternative("Mars", fraction: .zero),
                                             Alternative("Saturn", fraction: Fraction(0.5)!)])),
                GapFill.WeightedGap(.number(value: 139_820, tolerance: 100, units: []), weight: 2),
                GapFill.WeightedGap(.typed([Alternative("a~b#c}"), Alternative("gas giant", fraction: Fraction(1.0 / 3)!)])),
            ]))),
            Question(text: "Part two: the moons", body: .slide),
            Question(text: "Brightest planet?", body: .singleChoice([Choice(id: 1, text: "Venus", isCorrect: true, fraction: .full),
                Choice(id: 2, text: "Jupiter", isCorrect: false, fraction: Fraction(0.5)), Choice(id: 3, text: "Pluto", isCorrect: false, fraction: Fraction(-0.25))])),
        ])]),
    ])])

    static func written(_ format: BankFormat) -> [String] {
        format.write(bank).map { [String(decoding: $0.data, as: UTF8.self)] } ?? []
    }

    static let csv = written(.csv) + [
        "question,option1,option2,option3,option4,answer\n\"Largest ocean?\",Pacific,Atlantic,Indian,,Pacific\r\n",
        "Capital of France?,Paris,Lyon,,,paris\n\"He said \"\"hi\"\"\",\"a,b\",c,d,e,\"a,b\"\n",
        "answer,question,option2,option1,difficulty,subject,topic,explanation,option3,option4\nB,Q?,A,B,hard,S,T,why,,\n",
        "question,option1,option2,option3,option4,answer\nQ,1,2,3,4,2\nR,a,b,c,d,B\n",
        "\u{FEFF}Q1,x,y,,,x\r\rQ2,\"multi\nline\",y,,,y\n",
    ]
    static let csvTokens = [
        ",", "\"", "\"\"", ",\"", "\",", "question", "option1", "option4", "answer", "subject", "topic", "difficulty",
        "explanation", "A", "D", "1", "5", "easy", "HARD", ",,,,", "\"\n\"",
    ]

    static let gift = written(.gift) + [
        """
        // [id:1] [tag:space]
        $CATEGORY: $course$/top/Science/Space

        ::Q1:: What is 2+2? {=4 ~3 ~%-50%5#no}

        ::Q2::[html]<p>The sun is a <b>star</b>.</p>{T#wrong#right}

        Who is buried in Grant's tomb?{=Grant =Ulysses S. Grant =%50%Ulysses}

        When was Grant born?{#1822:5}

        What is pi?{#=3.14159:0.0005 =%50%3.14:0.01 ~3}

        Range{#1..5}

        Primes{~%50%2 ~%50%3 ~%-100%4}

        Match{=a -> 1 =b -> 2 =c -> 3}

        Essay{}

        Gandhi was born on {~15th =2nd ~3rd} of October.

        ::Escapes::\\{ \\} \\~ \\= \\# \\: \\\\ \\n {=a\\=b ~c\\{d}
        ####General &amp; feedback

        [markdown]**Bold** question{FALSE}
        """,
        "Q{\n=yes\n~no\n}\n\n$CATEGORY: A\n\n::T\\:x::<!-- c -->Q &eacute;?{~a =b}",
    ]
    static let giftTokens = [
        "{", "}", "~", "=", "#", "::", "->", "%", "%50%", "%-100%", "%33.33333%", "####", "$CATEGORY:", "$course$/top/",
        "[html]", "[moodle]", "[plain]", "[markdown]", "\\", "\\{", "\\}", "\\n", "\\:", "//", "{T}", "{FALSE}", "{#", "..",
        "<p>", "</p>", "<br>", "<!--", "-->", "<a href=\"x\">", "<img src=x>", "&lt;", "@@PLUGINFILE@@", "\n\n",
    ]

    static let moodleXML = written(.moodleXML) + [
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <quiz>
          <question type="category"><category><text>$course$/top/Science//Physics/Space</text></category></question>
          <question type="multichoice">
            <name><text>Q1</text></name>
            <questiontext format="html"><text><![CDATA[<p>Largest <b>planet</b>?</p><img src="@@PLUGINFILE@@/a.png">]]></text>
              <file name="a.png" path="/" encoding="base64">iVBORw0KGgo=</file></questiontext>
            <generalfeedback format="html"><text>Jupiter &amp; more</text></generalfeedback>
            <defaultgrade>2.5</defaultgrade>
            <single>true</single>
            <answer fraction="100" format="html"><text>Jupiter</text><feedback><text>Yes</text></feedback></answer>
            <answer fraction="0"><text>Mars</text></answer>
            <answer fraction="-33.33333"><text>Venus</text></answer>
          </question>
          <question type="multichoice"><questiontext format="moodle_auto_format"><text>Pick two</text></questiontext>
            <single>false</single><answer fraction="50"><text>a</text></answer><answer fraction="50"><text>b</text></answer>
            <answer fraction="-100"><text>c</text></answer></question>
          <question type="truefalse"><questiontext><text>The Sun is a star.</text></questiontext>
            <answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
          <question type="shortanswer"><questiontext><text>Red planet?</text></questiontext><usecase>0</usecase>
            <answer fraction="100"><text>Mars</text></answer><answer fraction="50"><text>Ma*</text></answer></question>
          <question type="numerical"><questiontext><text>Pi?</text></questiontext>
            <answer fraction="100"><text>3.14</text><tolerance>0.01</tolerance></answer>
            <units><unit><multiplier>1</multiplier><unit_name>rad</unit_name></unit></units></question>
          <question type="essay"><questiontext><text>Why?</text></questiontext></question>
          <question type="matching"><questiontext><text>Match</text></questiontext>
            <subquestion><text>a</text><answer><text>1</text></answer></subquestion></question>
        </quiz>
        """,
    ]
    static let moodleXMLTokens = [
        "<![CDATA[", "]]>", "<question type=\"multichoice\">", "<question type=\"numerical\">", "</question>", "<text>",
        "</text>", "<answer fraction=\"100\">", "</answer>", "<single>false</single>", "<!DOCTYPE quiz>", "<?xml version=\"1.0\"?>",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>", "<?xml version='1.0' encoding='windows-1252'?>", " encoding=\"UTF-7\"",
        "&lt;", "&#x110000;", "&#0;", "fraction=\"33.33333\"", "fraction=\"-0\"",
        "<defaultgrade>1e308</defaultgrade>", "<tolerance>-1</tolerance>", "<multiplier>0</multiplier>", "<file encoding=\"base64\">",
        "<img src=x>", "<!--", "-->", "<?pi ?>", "xmlns:a=\"urn:a\"", "<a:b>", "<br/>", "<", ">", "/>", "=\"", "&nbsp;",
        "<category><text>$system$/</text></category>", "<questiontext format=\"html\">",
    ]

    static let aiken = written(.aiken) + [
        "What is 2+2?\nA. 3\nB) 4\nC. 5\nANSWER: B\n\nSecond\nline?\n\nA) x\nB) y\nanswer: a\n",
        "\u{FEFF}Q\r\nA. a\r\nB. b\r\nANSWER: C\r\n",
    ]
    static let aikenTokens = ["A. ", "B) ", "Z. ", "ANSWER: ", "ANSWER:", "ANSWER: Z", "answer: b", "\n\n", "A.", "  "]

    static let openTriviaDB = [
        """
        {"response_code":0,"results":[{"category":"Science: Computers","type":"multiple","difficulty":"easy",
        "question":"What does &quot;CPU&quot; stand for?","correct_answer":"Central Processing Unit",
        "incorrect_answers":["Computer Personal Unit","Central Process Unit","Central Processor Unit"]},
        {"category":"Science &amp; Nature","type":"boolean","difficulty":"hard","question":"It&#039;s true?",
        "correct_answer":"True","incorrect_answers":["False"]}]}
        """,
        #"{"response_code":0,"results":[{"category":"R2FtZXM%3D","type":"Ym9vbGVhbg==","difficulty":"ZWFzeQ==","question":"SXMgaXQ/","correct_answer":"VHJ1ZQ==","incorrect_answers":["RmFsc2U="]}]}"#,
        #"{"response_code":0,"results":[{"category":"Art%3A%20Music","type":"multiple","difficulty":"medium","question":"Who%3F","correct_answer":"A%20B","incorrect_answers":["C","D%26E","F+G"]}]}"#,
        #"{"response_code":1,"results":[]}"#,
    ]
    static let openTriviaDBTokens = [
        "\"response_code\":", "\"results\":", "\"type\":\"boolean\"", "\"type\":\"multiple\"", "\"difficulty\":\"hard\"",
        "\"correct_answer\":", "\"incorrect_answers\":[", "%", "%2", "%zz", "%C3%A9", "%FF", "+", "=", "==", "Zm9v", "&quot;",
    ]

    static let remote = [
        #"{"question": "What are all the Java keywords?", "answer": ["abstract", "assert", "boolean", "break"]}"#,
        #"[{"question": "Primary colours?", "answer": ["red", "green", "blue"], "extra": 1}, {"question": "Q", "answer": ["a"]}]"#,
    ]
    static let remoteTokens = ["{\"question\":", "\"answer\":[", "\"\"", "\" \"", "\"Java\",\"java\"", "\"a\",", "[]"]

    static let xlsxWorkbook = """
        <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
        xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>
        """
    static let xlsxRelations = """
        <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
        <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>\
        <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>\
        </Relationships>
        """
    static let xlsxSharedStrings = """
        <sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>Question - max 120 characters</t></si>\
        <si><t>Answer 1 - max 75 characters</t></si><si><t>Answer 2 - max 75 characters</t></si><si><t>Time limit (sec)</t></si>\
        <si><t>Correct answer(s) - choose at least one</t></si><si><r><t>Capital of </t></r><r><t>Finland?</t></r></si>\
        <si><t>Helsinki</t></si><si><t>Turku</t></si></sst>
        """
    /// A sheet that shows the shared strings above as a Kahoot question.
    static let xlsxSheetOfStrings = """
        <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>\
        <row r="1"><c r="B1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c><c r="D1" t="s"><v>2</v></c><c r="E1" t="s"><v>3</v></c>\
        <c r="F1" t="s"><v>4</v></c></row><row r="2"><c r="B2" t="s"><v>5</v></c><c r="C2" t="s"><v>6</v></c><c r="D2" t="s"><v>7</v></c>\
        <c r="E2"><v>20</v></c><c r="F2"><v>1</v></c></row></sheetData></worksheet>
        """
    static let xlsx = [
        xlsxSheetOfStrings,
        xlsxSharedStrings,
        """
        <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>\
        <row r="1"><c r="A1" t="inlineStr"><is><t>question</t></is></c><c r="B1" t="inlineStr"><is><t>option1</t></is></c>\
        <c r="C1" t="inlineStr"><is><t>option2</t></is></c><c r="D1" t="inlineStr"><is><t>answer</t></is></c></row>\
        <row r="2"><c r="A2" t="inlineStr"><is><t>Year of Apollo 11?</t></is></c><c r="B2"><v>1969</v></c><c r="C2" t="b"><v>1</v></c>\
        <c r="D2" t="str"><f>B2</f><v>1969</v></c></row></sheetData></worksheet>
        """,
        """
        <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>\
        <row r="3"><c r="A3" t="inlineStr"><is><t>Q?</t></is></c><c r="B3" t="inlineStr"><is><t>True</t></is></c>\
        <c r="C3" t="inlineStr"><is><t>False</t></is></c><c r="F3"><v>0.30000000000000004</v></c></row></sheetData></worksheet>
        """,
    ]
    static let xlsxTokens = [
        "<row r=\"", "<c r=\"", "\" t=\"s\">", "\" t=\"inlineStr\">", "\" t=\"b\">", "\" t=\"str\">", "\" t=\"e\">",
        "<v>", "</v>", "<is><t>", "</t></is>", "<f>", "</f>", "<rPh><t>", "</t></rPh>", "<r><t>", "</t></r>", "</c>", "</row>",
        "XFD1", "XFE1", "1048577", "-1", "1e308", "NaN", "<!DOCTYPE x [<!ENTITY e \"e\">]>", "&e;", "&amp;", "<![CDATA[", "]]>",
        "Question", "Answer 1", "Answer 5", "Correct answer(s)", "Time limit", "question", "option1", "answer", "1,2,3,4", "True", "False",
    ]
    static let bundle = written(.bundle) + [
        #"{"format":"quizbox-bundle","version":1,"subjects":[]}"#,
    ]
    static let bundleTokens = [
        "\"kind\":", "\"singleChoice\"", "\"multipleChoice\"", "\"trueFalse\"", "\"typedAnswer\"", "\"numeric\"", "\"nameAll\"",
        "\"choices\":[", "\"correct\":true", "\"points\":", "101", "-1", "\"timeLimitSeconds\":", "\"items\":[", "\"alternates\":[",
        "\"tolerance\":", "\"value\":", "\"unit\":", "\"topics\":[", "\"quizzes\":[", "\"questions\":[", "\"name\":", "\"version\":2",
    ]

    static let json = [
        #"{"a":[1,-0.5e+10,true,false,null,"\u00e9\ud83d\ude00\n\"\\\/"],"b":{}}"#, "[]", "0", "\"x\"", " [ {\"k\" : [ ] } ] ",
        "\u{FEFF}{\"é\":\"\u{1F600}\"}",
    ]
    static let jsonTokens = [
        "{", "}", "[", "]", "\"", ":", ",", "\\u", "\\ud800", "\\udc00", "\\ud800\\udc00", "\\u0000", "\\x", "1e999", "-", "0.",
        "01", "true", "null", "\"\\", "\"a\":1,", "\"a\":", "[1,", "1.5e-7",
    ]
    static let jsonNesting = [("[", "]"), ("{\"a\":", "}"), ("[{\"x\":", "}]")]

    static let feed = [
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"
             xmlns:media="http://search.yahoo.com/mrss/">
        <channel><title>The Example Times &amp; Post</title><lastBuildDate>Mon, 16 Nov 2026 08:00:00 +0000</lastBuildDate>
          <item><title>Water on Mars&amp;#8217; moon&nbsp;&eacute;</title><link>/2026/11/water</link>
            <pubDate>Sun, 15 Nov 2026 14:30:00 +0100</pubDate><guid isPermaLink="false">p=1234</guid>
            <description><![CDATA[<p>Ice <b>under</b> the surface &amp; more.</p><script>x</script>]]></description>
            <media:group><media:content url="https://cdn.example.org/a.jpg" medium="image"/></media:group></item>
          <item><title>Second</title><guid>https://news.example.org/second</guid><pubDate>Sat, 14 Nov 26 09:00 GMT</pubDate>
            <description>Escaped &lt;em&gt;HTML&lt;/em&gt;</description><dc:date>2026-11-14T09:00:00.5+02:00</dc:date>
            <enclosure url="second.png" type="image/png"/><media:thumbnail url="javascript:alert(1)"/></item>
          <item><description>No title, no link</description></item>
        </channel></rss>
        """,
        """
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
        <channel><title>RDF</title><dc:date>2026-01-01</dc:date></channel>
        <item><title>One</title><link>http://example.org/1</link><dc:date>2026-13-40T25:61:61Z</dc:date></item></rdf:RDF>
        """,
        """
        <feed xmlns="http://www.w3.org/2005/Atom"><title type="html">Atom &lt;b&gt;feed&lt;/b&gt;</title><updated>2026-11-16T08:00:00Z</updated>
          <entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">An <b>xhtml</b> title</div></title>
            <link rel="alternate" href="entries/1"/><link rel="enclosure" type="image/jpeg" href="https://cdn.example.org/1.jpg"/>
            <id>tag:example.org,2026:1</id><published>2026-11-15T14:30:00-05:00</published>
            <content type="html">&lt;p&gt;Body&lt;/p&gt;</content></entry>
          <entry><title>Two</title><link href="https://example.org/2"/><summary>Plain</summary><updated>bad</updated></entry>
        </feed>
        """,
        "<a:feed xmlns:a=\"http://www.w3.org/2005/Atom\"><a:entry><a:title>T</a:title><a:link href=\"http://x.org\"/></a:entry></a:feed>",
    ]
    static let feedTokens = [
        "<item>", "</item>", "<entry>", "</entry>", "<title>", "</title>", "<link>", "</link>", "<![CDATA[", "]]>", "&nbsp;",
        "&eacute;", "&amp;#8217;", "&thetasym;", "&#x110000;", "&bogus;", "<!DOCTYPE rss>", "<?xml version=\"1.0\" encoding=\"ISO-8859-7\"?>",
        " encoding='UTF-7'", "<!--", "-->", "<pubDate>", "</pubDate>",
        "Mon, 31 Feb 2020 25:61:61 +9999", "2020-02-30T24:00:00Z", "99999-01-01T00:00:00Z", "Tue, 1 Jan 99 1:2 PST",
        "<enclosure type=\"image/png\" url=\"", "javascript:", "http://", "https://a", "<media:content medium=\"image\" url=\"",
        "<content type=\"xhtml\">", "type=\"html\"", "rel=\"alternate\"", "href=\"", "<guid isPermaLink=\"true\">", "\"/>",
        "<link href=\"//x\"/>", "<dc:date>", "xml:base=\"http://b/\"",
    ]

    static let htmlEntities = [
        "Caf&eacute; &amp; &#x27;quotes&#39; &#128;&#159; &thetasym; &foo; & lone &copy",
        "&#0;&#xD800;&#x10FFFF;&#x110000;&#99999999999;&#;&#x;&Eacute;&eacute;&hellip;&euro;",
        "&amp;quot; &lt;b&gt; &nbsp;&nbsp;",
    ]
    static let htmlEntityTokens = [
        "&", ";", "#", "x", "X", "&#", "&#x", "&amp;", "&#128;", "&#159;", "&#0;", "&#xFFFFFFFF;", "&thetasym;", "&Eacute;",
        "&nbsp;", "&#x202E;", "&#xFEFF;", "&#10;", "&#13;", "&#9;", "&#x301;", "0", "9", "F",
    ]

    static let cloze = [
        "The capital of {1:MULTICHOICE:=France~Spain~%50%Gaul#Close} is {2:SHORTANSWER:=Paris~%50%Lutetia~*#No}.",
        "{1:NUMERICAL:=777:5~%50%770:20} and {:SA:a\\}b\\~c\\#d} {3:MCV:=x~y} {1:SHORTANSWER_C:=Yes}",
        "Sets {a, b} [[1]] {x:y} {1:MULTIRESPONSE:=a~b} {0:SA:=a} {1:NM:=ten}",
    ]
    static let clozeTokens = [
        "{", "}", "~", "=", "#", ":", "%", "%50%", "%-100%", "%1e309%", "\\", "\\}", "[[1]]", "[[", "]]", "{1:SA:", "{2:MC:",
        "{1:NUMERICAL:", "{:MULTICHOICE_HS:", "{99999999999:", "SHORTANSWER_C", "MULTIRESPONSE", "=*", "1e308", "nan", "-0",
    ]

    /// The markers the audio headers are read by.
    static let audioTokens = ["RIFF", "WAVE", "fmt ", "data", "OggS", "OpusHead", "\u{1}vorbis", "ftyp", "moov", "mvhd", "mdat",
                              "ID3", "Xing", "Info", "VBRI"]

    static let tex = [
        "Solve $$x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}$$ for \\(x\\).",
        "\\[\\sum_{i=1}^n i = \\frac{n(n+1)}{2}\\] and $$\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}$$",
        "$$\\lim_{x \\to 0} \\left( \\frac{\\sin x}{x} \\right) = 1$$ costs $5 <b>now</b> & \\(\\text{<i>}\\)",
    ]
    static let texTokens = [
        "$$", "\\(", "\\)", "\\[", "\\]", "{", "}", "^", "_", "&", "\\\\", "\\frac", "\\sqrt[", "]", "\\left", "\\right",
        "\\middle|", "\\begin{cases}", "\\end{cases}", "\\text{", "\\mathbb{", "\\not", "\\hat", "'", "<", ">", "\"", "&amp;",
        "\\alpha", "\\sum", "\\int", "\\lim", "\\limits", "\\color", "\\", "%", "~",
    ]
}
