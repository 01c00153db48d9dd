// The checked calls of one shape on the judge's device plane (judge/checked_calls.hpp says what
// they are). Besides the lanes' buffers, three of the plane's in the same layout: the pristine
// image (the current inputs, and the candidate's guard bytes of its last call) and one copy of
// the candidate's buffer per call of a seed, taken on the device right after the call, as a
// download right after it would be. The expected outputs are the reference's, where its call
// left them in its buffer. Inputs, guard zones and outputs are compared there (outputs by the
// host checker's tolerance rule); an output out of tolerance, or two calls that differ in any
// bit, come to the host for the full check (judge/checker), which then explains it.
#pragma once

#include <memory>
#include <string>

#include "judge/checked_calls.hpp"

namespace arena {

// nullptr, with *why, where a lane's buffers are not the plane's or the plane has no room.
std::unique_ptr<CheckedCalls> make_checked_calls_on_device(const Task& task, const Shape& shape,
                                                           Lane& reference, Lane& candidate,
                                                           Lane* baseline, std::string* why);

}  // namespace arena
