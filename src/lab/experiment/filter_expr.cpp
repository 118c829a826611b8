// lab/experiment: recursive-descent parser and tree evaluator for filter expressions.
#include "lab/experiment/filter_expr.hpp"

#include <charconv>

namespace pglab::lab::experiment {

/// A node of the expression tree. `op` is one of "or" "and" "not" "==" "!=" "<" "<=" ">" ">="
/// for operators, "lit" for a literal (`literal`), "name" for a variable (`name`).
struct FilterNode {
    std::string op;
    Scalar literal;
    std::string name;
    std::shared_ptr<const FilterNode> left;
    std::shared_ptr<const FilterNode> right;
};

namespace {

using NodePtr = std::shared_ptr<const FilterNode>;

constexpr int k_max_depth = 64; // nesting limit, so a hostile file cannot exhaust the stack

class Parser {
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    Result<NodePtr> parse_all(std::vector<std::pair<std::string, std::size_t>>& names) {
        m_names = &names;
        PGLAB_TRY_ASSIGN(NodePtr root, parse_or(0));
        skip_space();
        if (m_pos != m_text.size()) {
            return fail("unexpected \"" + std::string(m_text.substr(m_pos, 1)) + "\"");
        }
        return root;
    }

    std::size_t position() const { return m_pos; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::vector<std::pair<std::string, std::size_t>>* m_names = nullptr;

    Unexpected fail(std::string message) const { return make_error(std::move(message)); }

    void skip_space() {
        while (m_pos < m_text.size()
               && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n'
                   || m_text[m_pos] == '\r')) {
            ++m_pos;
        }
    }

    static bool is_word_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
               || c == '_' || c == '.';
    }

    /// Consumes `token` if it comes next (a keyword only when not followed by a name character).
    bool accept(std::string_view token) {
        skip_space();
        if (m_text.substr(m_pos, token.size()) != token) {
            return false;
        }
        const bool word = is_word_char(token.front());
        const std::size_t after = m_pos + token.size();
        if (word && after < m_text.size() && is_word_char(m_text[after])) {
            return false;
        }
        m_pos = after;
        return true;
    }

    static NodePtr make(std::string op, NodePtr left, NodePtr right) {
        auto n = std::make_shared<FilterNode>();
        n->op = std::move(op);
        n->left = std::move(left);
        n->right = std::move(right);
        return n;
    }

    /// Operands of the next level (`operand`) joined left to right by `symbol` or the keyword
    /// `op`, which names the node.
    Result<NodePtr> parse_chain(int depth, std::string_view symbol, const char* op,
                                Result<NodePtr> (Parser::*operand)(int)) {
        PGLAB_TRY_ASSIGN(NodePtr left, (this->*operand)(depth));
        while (accept(symbol) || accept(op)) {
            PGLAB_TRY_ASSIGN(NodePtr right, (this->*operand)(depth));
            left = make(op, left, right);
        }
        return left;
    }

    Result<NodePtr> parse_or(int depth) {
        return parse_chain(depth, "||", "or", &Parser::parse_and);
    }

    Result<NodePtr> parse_and(int depth) {
        return parse_chain(depth, "&&", "and", &Parser::parse_not);
    }

    Result<NodePtr> parse_not(int depth) {
        if (depth > k_max_depth) {
            return fail("expression nested too deeply");
        }
        skip_space();
        if (m_text.substr(m_pos, 2) != "!=" && (accept("!") || accept("not"))) {
            PGLAB_TRY_ASSIGN(NodePtr operand, parse_not(depth + 1));
            return make("not", operand, nullptr);
        }
        return parse_cmp(depth);
    }

    Result<NodePtr> parse_cmp(int depth) {
        PGLAB_TRY_ASSIGN(NodePtr left, parse_atom(depth));
        static const char* const k_ops[] = {"==", "!=", "<=", ">=", "<", ">"};
        for (const char* op : k_ops) {
            if (accept(op)) {
                PGLAB_TRY_ASSIGN(NodePtr right, parse_atom(depth));
                return make(op, left, right);
            }
        }
        return left;
    }

    Result<NodePtr> parse_atom(int depth) {
        skip_space();
        if (m_pos >= m_text.size()) {
            return fail("expression ends where a value was expected");
        }
        const char c = m_text[m_pos];
        if (c == '(') {
            ++m_pos;
            PGLAB_TRY_ASSIGN(NodePtr inner, parse_or(depth + 1));
            if (!accept(")")) {
                return fail("missing \")\"");
            }
            return inner;
        }
        auto n = std::make_shared<FilterNode>();
        n->op = "lit";
        if (c == '"' || c == '\'') {
            const std::size_t close = m_text.find(c, m_pos + 1);
            if (close == std::string_view::npos) {
                return fail("unterminated string");
            }
            n->literal.value = std::string(m_text.substr(m_pos + 1, close - m_pos - 1));
            m_pos = close + 1;
            return NodePtr(n);
        }
        if ((c >= '0' && c <= '9') || c == '-') {
            return parse_number(n);
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
            const std::size_t start = m_pos;
            while (m_pos < m_text.size() && is_word_char(m_text[m_pos])) {
                ++m_pos;
            }
            const std::string word(m_text.substr(start, m_pos - start));
            if (word == "true" || word == "false") {
                n->literal.value = word == "true";
                return NodePtr(n);
            }
            if (word.back() == '.') {
                m_pos = start;
                return fail("invalid name \"" + word + "\"");
            }
            n->op = "name";
            n->name = word;
            m_names->emplace_back(word, start);
            return NodePtr(n);
        }
        return fail("unexpected \"" + std::string(1, c) + "\"");
    }

    Result<NodePtr> parse_number(std::shared_ptr<FilterNode>& n) {
        const std::size_t start = m_pos;
        ++m_pos;
        bool is_float = false;
        while (m_pos < m_text.size()
               && ((m_text[m_pos] >= '0' && m_text[m_pos] <= '9') || m_text[m_pos] == '.'
                   || m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            is_float = is_float || !(m_text[m_pos] >= '0' && m_text[m_pos] <= '9');
            ++m_pos;
        }
        const char* first = m_text.data() + start;
        const char* last = m_text.data() + m_pos;
        if (is_float) {
            double d = 0;
            const auto r = std::from_chars(first, last, d);
            if (r.ec != std::errc() || r.ptr != last) {
                m_pos = start;
                return fail("invalid number");
            }
            n->literal.value = d;
        } else {
            std::int64_t i = 0;
            const auto r = std::from_chars(first, last, i);
            if (r.ec != std::errc() || r.ptr != last) {
                m_pos = start;
                return fail("invalid number");
            }
            n->literal.value = i;
        }
        return NodePtr(n);
    }
};

Result<Scalar> value_of(const FilterNode& n, const FilterExpr::Lookup& lookup);

Result<bool> truth_of(const FilterNode& n, const FilterExpr::Lookup& lookup);

Result<Scalar> value_of(const FilterNode& n, const FilterExpr::Lookup& lookup) {
    if (n.op == "lit") {
        return n.literal;
    }
    if (n.op == "name") {
        if (auto v = lookup(n.name)) {
            return *v;
        }
        return make_error("variable \"" + n.name + "\" is not defined");
    }
    PGLAB_TRY_ASSIGN(bool b, truth_of(n, lookup));
    Scalar s;
    s.value = b;
    return s;
}

/// `x op y` for an ordering: op is "<", "<=", ">" or ">=".
template <typename T>
bool ordered(const std::string& op, const T& x, const T& y) {
    if (op == "<") {
        return x < y;
    }
    if (op == "<=") {
        return x <= y;
    }
    if (op == ">") {
        return x > y;
    }
    return x >= y;
}

Result<bool> compare(const std::string& op, const Scalar& a, const Scalar& b) {
    if (a.is_number() && b.is_number()) {
        const double x = a.as_double();
        const double y = b.as_double();
        if (op == "==") {
            return x == y;
        }
        if (op == "!=") {
            return x != y;
        }
        return ordered(op, x, y);
    }
    const bool same_kind = a.value.index() == b.value.index();
    if (op == "==") {
        return same_kind && a == b;
    }
    if (op == "!=") {
        return !(same_kind && a == b);
    }
    if (!same_kind || !a.is_string()) {
        return make_error(std::string("cannot order a ") + a.kind_name() + " and a " + b.kind_name()
                          + " with \"" + op + "\"");
    }
    return ordered(op, std::get<std::string>(a.value), std::get<std::string>(b.value));
}

Result<bool> truth_of(const FilterNode& n, const FilterExpr::Lookup& lookup) {
    if (n.op == "or" || n.op == "and") {
        PGLAB_TRY_ASSIGN(bool left, truth_of(*n.left, lookup));
        if (n.op == "or" ? left : !left) {
            return left;
        }
        return truth_of(*n.right, lookup);
    }
    if (n.op == "not") {
        PGLAB_TRY_ASSIGN(bool operand, truth_of(*n.left, lookup));
        return !operand;
    }
    if (n.op == "lit" || n.op == "name") {
        PGLAB_TRY_ASSIGN(Scalar v, value_of(n, lookup));
        if (!v.is_bool()) {
            const std::string what = n.op == "name" ? "\"" + n.name + "\"" : v.text();
            return make_error("condition " + what + " is a " + v.kind_name()
                              + ", not a boolean (compare it with ==, !=, <...)");
        }
        return std::get<bool>(v.value);
    }
    PGLAB_TRY_ASSIGN(Scalar a, value_of(*n.left, lookup));
    PGLAB_TRY_ASSIGN(Scalar b, value_of(*n.right, lookup));
    return compare(n.op, a, b);
}

} // namespace

Result<FilterExpr> FilterExpr::parse(std::string_view text, std::size_t* error_offset) {
    FilterExpr e;
    e.m_text = std::string(text);
    Parser p(e.m_text);
    auto root = p.parse_all(e.m_names);
    if (!root) {
        if (error_offset != nullptr) {
            *error_offset = p.position();
        }
        return Unexpected{root.error()};
    }
    e.m_root = *root;
    return e;
}

Result<bool> FilterExpr::evaluate(const Lookup& lookup) const {
    if (!m_root) {
        return true;
    }
    return truth_of(*m_root, lookup);
}

} // namespace pglab::lab::experiment
