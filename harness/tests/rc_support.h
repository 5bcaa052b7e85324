// RapidCheck generators the model tests share.
//
// rc::gen::resize(n, g) bounds a container's length by lowering the size of everything `g` draws,
// the elements' values included: an rc::gen::arbitrary<std::uint32_t>() inside resize(6, ...)
// never exceeds a few units, so a byte-order defect above the low byte passes. up_to bounds the
// length alone; the elements keep the size of the property. (tests/test_rapidcheck_sizes.py
// refuses rc::gen::resize in the test sources.)
#pragma once

#include <cstddef>

#include <rapidcheck.h>

namespace stk::test {

// A container of `lo` to `hi` elements (inclusive), each drawn from `element` at the property's size.
template <typename Container, typename T>
rc::Gen<Container> length_between(std::size_t lo, std::size_t hi, rc::Gen<T> element) {
  return rc::gen::mapcat(rc::gen::inRange(lo, hi + 1), [element](std::size_t n) {
    return rc::gen::container<Container>(n, element);
  });
}

// Up to `hi` elements (none allowed).
template <typename Container, typename T>
rc::Gen<Container> up_to(std::size_t hi, rc::Gen<T> element) {
  return length_between<Container>(0, hi, std::move(element));
}

}  // namespace stk::test
