// lab/experiment: optimal-string-alignment distance (Damerau-Levenshtein without repeated edits of
// one substring) for "did you mean" suggestions.
#include "lab/experiment/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace pglab::lab::experiment {
namespace {

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    const std::size_t n = a.size();
    const std::size_t m = b.size();
    std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
    for (std::size_t i = 0; i <= n; ++i) {
        d[i][0] = i;
    }
    for (std::size_t j = 0; j <= m; ++j) {
        d[0][j] = j;
    }
    for (std::size_t i = 1; i <= n; ++i) {
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2])
                && lower(a[i - 2]) == lower(b[j - 1])) {
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[n][m];
}

} // namespace

std::string closest_name(std::string_view word, const std::vector<std::string>& candidates) {
    constexpr std::size_t k_max_word = 64; // longer words are not typos of our names
    if (word.size() > k_max_word) {
        return {};
    }
    std::string best;
    std::size_t best_distance = 0;
    for (const auto& c : candidates) {
        if (c.size() > k_max_word) {
            continue;
        }
        const std::size_t dist = edit_distance(word, c);
        const std::size_t limit = std::max<std::size_t>(1, std::max(word.size(), c.size()) / 3);
        if (dist <= limit && (best.empty() || dist < best_distance)) {
            best = c;
            best_distance = dist;
        }
    }
    return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
    const std::string best = closest_name(word, candidates);
    return best.empty() ? std::string() : " (did you mean \"" + best + "\"?)";
}

std::string quoted_list(const std::vector<std::string>& names, std::string_view last) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0) {
            out += i + 1 == names.size() ? last : std::string_view(", ");
        }
        out += "\"" + names[i] + "\"";
    }
    return out;
}

} // namespace pglab::lab::experiment
