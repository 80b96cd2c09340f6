// A 16x2 character LCD that remembers what is on its two lines (test double of the
// "LiquidCrystal I2C" library's class of the same name, with the calls the sketch uses).
#ifndef LIQUIDCRYSTAL_I2C_STUB_H
#define LIQUIDCRYSTAL_I2C_STUB_H

#include <string>

#include "Arduino.h"

class LiquidCrystal_I2C {
 public:
  LiquidCrystal_I2C(uint8_t address, uint8_t columns, uint8_t rows)
      : address(address), columns(columns), rows(rows) {
    lines[0] = std::string(columns, ' ');
    lines[1] = std::string(columns, ' ');
  }
  void init() { initialised = true; }
  void backlight() { lit = true; }
  void setCursor(uint8_t column, uint8_t row) {
    cursor_column = column;
    cursor_row = row;
  }
  void print(const char* text) {
    for (; *text && cursor_row < 2; ++text) {
      if (cursor_column < columns) lines[cursor_row][cursor_column] = *text;
      ++cursor_column;
    }
  }
  uint8_t address, columns, rows;
  bool initialised = false, lit = false;
  uint8_t cursor_column = 0, cursor_row = 0;
  std::string lines[2];
};

#endif
